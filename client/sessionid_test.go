package client

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
)

func TestValidSessionID(t *testing.T) {
	for id, want := range map[string]bool{
		"ses_e00b7bd8fffepHw67xM0wJt8Mb": true,
		"ses_1":                          true,
		"ses_":                           false,
		"":                               false,
		"msg_abc":                        false,
		"ses_abc/../x":                   false,
		"ses_abc def":                    false,
		"ses_abc?x=1":                    false,
		"SES_abc":                        false,
		"ses_" + strings.Repeat("a", 65): false,
	} {
		if got := ValidSessionID(id); got != want {
			t.Errorf("ValidSessionID(%q) = %v, want %v", id, got, want)
		}
	}
}

// TestMalformedSessionIDSendsNothing: the server answers 500 to a
// malformed id on abort, so the client refuses before sending.
func TestMalformedSessionIDSendsNothing(t *testing.T) {
	srv := newRecorder(t)
	c := mustNew(t, Options{BaseURL: srv.URL})
	ctx := context.Background()
	calls := map[string]func() error{
		"Abort":         func() error { return c.Abort(ctx, "nope") },
		"Session":       func() error { _, err := c.Session(ctx, "../x"); return err },
		"Children":      func() error { _, err := c.Children(ctx, ""); return err },
		"Messages":      func() error { _, err := c.Messages(ctx, "ses_a b", 0); return err },
		"PromptAsync":   func() error { return c.PromptAsync(ctx, "x", PromptRequest{}) },
		"DeleteSession": func() error { return c.DeleteSession(ctx, "ses_") },
		"CreateSession": func() error { _, err := c.CreateSession(ctx, CreateSessionRequest{ParentID: "bad"}); return err },
	}
	for name, f := range calls {
		err := f()
		if ErrorKind(err) != KindInvalid || !strings.Contains(err.Error(), "is not a session id") {
			t.Errorf("%s: got %v, want an invalid-id error", name, err)
		}
	}
	if err := c.ReplyPermission(ctx, "per_1", "maybe", ""); ErrorKind(err) != KindInvalid {
		t.Errorf("ReplyPermission with a bad reply: %v", err)
	}
	if n := srv.count(); n != 0 {
		t.Errorf("the server got %d requests, want 0", n)
	}
}

// TestCreateSessionRefusesAMalformedID: a server that answers POST
// /session with an id that is not one (here with a newline, which would
// fake a line of `octop launch`'s output) gets a one-line error, and the
// id goes no further.
func TestCreateSessionRefusesAMalformedID(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.HandleFunc("POST /session", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"ses_a\nstatus: complete","title":"t"}`))
	})
	c, err := New(Options{BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.CreateSession(context.Background(), CreateSessionRequest{Title: "t"})
	if ErrorKind(err) != KindBadResponse || s.ID != "" || strings.Contains(err.Error(), "\n") ||
		!strings.Contains(err.Error(), "not a session id") {
		t.Fatalf("got %+v, %v; want a one-line bad-response error and no session", s, err)
	}
}
