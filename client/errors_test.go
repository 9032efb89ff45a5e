package client

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// closedPortURL is a loopback URL nothing listens on.
func closedPortURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

func oneLineErr(t *testing.T, err error) string {
	t.Helper()
	if err == nil {
		t.Fatal("got no error")
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\n\r") {
		t.Errorf("error is not one line: %q", msg)
	}
	return msg
}

func TestErrorUnreachable(t *testing.T) {
	u := closedPortURL(t)
	c := mustNew(t, Options{BaseURL: u})
	_, err := c.Health(context.Background())
	msg := oneLineErr(t, err)
	want := "cannot reach OpenCode at " + u + " — is `opencode serve` running?"
	if !strings.HasPrefix(msg, want) {
		t.Errorf("got %q\nwant it to start with %q", msg, want)
	}
	if !strings.Contains(msg, "connection refused") {
		t.Errorf("%q does not say the connection was refused", msg)
	}
	if !IsUnreachable(err) || IsNotFound(err) || IsUnauthorized(err) {
		t.Errorf("kind %v, want unreachable", ErrorKind(err))
	}
	var ce *Error
	if !errors.As(err, &ce) || ce.URL != u || ce.Status != 0 {
		t.Errorf("error fields %+v", ce)
	}
}

func TestErrorUnauthorized(t *testing.T) {
	fake := opencodetest.New(t, opencodetest.Options{Password: "right"})
	srv := struct{ URL string }{fake.URL()}

	c := mustNew(t, Options{BaseURL: srv.URL, Password: "wrong"})
	_, err := c.Health(context.Background())
	if msg := oneLineErr(t, err); msg != "OpenCode at "+srv.URL+" rejected the password from --password or OPENCODE_SERVER_PASSWORD" {
		t.Errorf("got %q", msg)
	}
	if !IsUnauthorized(err) {
		t.Errorf("kind %v, want unauthorized", ErrorKind(err))
	}

	// With another user name, the name may be what is wrong.
	c = mustNew(t, Options{BaseURL: srv.URL, Username: "admin", Password: "wrong"})
	_, err = c.Health(context.Background())
	if msg := oneLineErr(t, err); !strings.Contains(msg, `rejected user "admin"`) || !strings.Contains(msg, "--username") {
		t.Errorf("wrong user: got %q", msg)
	}

	// With no password at all, say that one is needed.
	c = mustNew(t, Options{BaseURL: srv.URL})
	_, err = c.Sessions(context.Background())
	if msg := oneLineErr(t, err); !strings.Contains(msg, "set OPENCODE_SERVER_PASSWORD") || !IsUnauthorized(err) {
		t.Errorf("no password: got %q", msg)
	}

	// Each hint names the server and where the password came from, or
	// where one is looked for: the URL, a config file's password_env.
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, tt := range []struct {
		opts Options
		want string
	}{
		{Options{BaseURL: "http://opencode:wrong@" + host},
			"OpenCode at " + srv.URL + " rejected the password from the URL (opencode:…@" + host + ")"},
		{Options{BaseURL: srv.URL, Name: "work", PasswordFrom: "MY_PW (password_env of server \"work\" in config.toml)"},
			"OpenCode at " + srv.URL + ` (server "work") wants a password; none came from MY_PW (password_env of server "work" in config.toml)`},
		{Options{BaseURL: srv.URL, Name: "work", Password: "wrong", PasswordFrom: "$MY_PW (password_env of server \"work\")"},
			"OpenCode at " + srv.URL + ` (server "work") rejected the password from $MY_PW (password_env of server "work")`},
	} {
		_, err := mustNew(t, tt.opts).Sessions(context.Background())
		if msg := oneLineErr(t, err); msg != tt.want || !IsUnauthorized(err) {
			t.Errorf("got %q\nwant %q", msg, tt.want)
		}
		if strings.Contains(err.Error(), "wrong") {
			t.Errorf("the hint shows the password: %q", err)
		}
	}

	// The stream gives up at once: one request, no retry storm.
	fake.ClearRequests()
	c = mustNew(t, Options{BaseURL: srv.URL, Password: "wrong", Stream: StreamOptions{MinBackoff: time.Millisecond}})
	rec := &sendRecorder{}
	done := make(chan error, 1)
	go func() { done <- c.Stream(context.Background(), rec.send) }()
	select {
	case err = <-done:
	case <-time.After(testwait.Scale(10 * time.Second)):
		t.Fatal("Stream kept going after a 401")
	}
	if !IsUnauthorized(err) {
		t.Errorf("Stream returned %v, want the unauthorized error", err)
	}
	if n := len(fake.Requests()); n != 1 {
		t.Errorf("the stream sent %d requests after a 401, want 1", n)
	}
	states := rec.states()
	if len(states) != 2 || states[0].State != wire.Connecting || states[1].State != wire.Disconnected || !IsUnauthorized(states[1].Err) || !states[1].RetryAt.IsZero() {
		t.Errorf("states %+v, want connecting then disconnected with the error and no retry", states)
	}

	c = mustNew(t, Options{BaseURL: srv.URL, Password: "right"})
	if _, err := c.Health(context.Background()); err != nil {
		t.Errorf("right password: %v", err)
	}
}

func TestErrorNotFound(t *testing.T) {
	srv := newRecorder(t)
	srv.answer(404, "application/json", `{"name":"NotFoundError","data":{"message":"Session not found: ses_missing"}}`)
	c := mustNew(t, Options{BaseURL: srv.URL})
	ctx := context.Background()
	_, err := c.Session(ctx, "ses_missing")
	if msg := oneLineErr(t, err); msg != "no session ses_missing on this server" {
		t.Errorf("got %q", msg)
	}
	if !IsNotFound(err) {
		t.Errorf("kind %v", ErrorKind(err))
	}
	for name, err := range map[string]error{
		"Messages":    func() error { _, err := c.Messages(ctx, "ses_missing", 0); return err }(),
		"PromptAsync": c.PromptAsync(ctx, "ses_missing", PromptRequest{Parts: []TextPartInput{{Text: "x"}}}),
		"Children":    func() error { _, err := c.Children(ctx, "ses_missing"); return err }(),
	} {
		if !IsNotFound(err) || err.Error() != "no session ses_missing on this server" {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := c.RejectQuestion(ctx, "que_x"); !IsNotFound(err) || err.Error() != "no question que_x on this server" {
		t.Errorf("RejectQuestion: %v", err)
	}
	// A 404 on a listing means the URL is not an OpenCode server.
	_, err = c.Agents(ctx)
	if msg := oneLineErr(t, err); !IsNotFound(err) || !strings.Contains(msg, "GET /agent") || !strings.Contains(msg, "OpenCode server") {
		t.Errorf("Agents: %q", msg)
	}
}

func TestErrorHTMLBody(t *testing.T) {
	srv := newRecorder(t)
	srv.answer(200, "text/html; charset=utf-8", "<!doctype html>\n<html lang=\"en\">\n  <head><title>OpenCode</title></head><body>"+strings.Repeat("x", 5000)+"</body></html>")
	c := mustNew(t, Options{BaseURL: srv.URL})
	_, err := c.Sessions(context.Background())
	msg := oneLineErr(t, err)
	want := `expected JSON from GET /session but got text/html: "<!doctype html> <html lang=\"en\"> <head>`
	if !strings.HasPrefix(msg, want) {
		t.Errorf("got  %q\nwant %q…", msg, want)
	}
	if len(msg) > 200 {
		t.Errorf("message is %d bytes long; keep the snippet short", len(msg))
	}
	if ErrorKind(err) != KindBadResponse {
		t.Errorf("kind %v", ErrorKind(err))
	}
	// A call with no result must not take an HTML page for success either.
	if err := c.PromptAsync(context.Background(), "ses_a", PromptRequest{}); ErrorKind(err) != KindBadResponse {
		t.Errorf("PromptAsync on HTML: %v", err)
	}
	// Broken JSON under a JSON content type.
	srv.answer(200, "application/json", `[{"id":`)
	_, err = c.Sessions(context.Background())
	if msg := oneLineErr(t, err); !strings.HasPrefix(msg, "malformed JSON from GET /session") {
		t.Errorf("got %q", msg)
	}
}

func TestErrorServer(t *testing.T) {
	srv := newRecorder(t)
	srv.answer(500, "application/json", `{"name":"UnknownError","data":{"message":"boom\nat line 2"}}`)
	c := mustNew(t, Options{BaseURL: srv.URL})
	err := c.Abort(context.Background(), "ses_a")
	want := "POST /session/ses_a/abort failed: HTTP 500 Internal Server Error: UnknownError: boom at line 2"
	if msg := oneLineErr(t, err); msg != want {
		t.Errorf("got  %q\nwant %q", msg, want)
	}
	var ce *Error
	if !errors.As(err, &ce) || ce.Kind != KindServer || ce.Status != 500 {
		t.Errorf("error %+v", ce)
	}
	srv.answer(400, "application/json", `{"_tag":"InvalidRequestError","message":"parts: required"}`)
	err = c.PromptAsync(context.Background(), "ses_a", PromptRequest{})
	if msg := oneLineErr(t, err); !strings.HasSuffix(msg, "HTTP 400 Bad Request: InvalidRequestError: parts: required") {
		t.Errorf("got %q", msg)
	}
	srv.answer(200, "application/json", `false`)
	if err := c.Abort(context.Background(), "ses_a"); ErrorKind(err) != KindBadResponse || !strings.Contains(err.Error(), "answered false") {
		t.Errorf("false answer: %v", err)
	}
}

func TestErrorTimeout(t *testing.T) {
	release := make(chan struct{})
	arrived := make(chan struct{}, 10)
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	c := mustNew(t, Options{BaseURL: srv.URL(), Timeout: 150 * time.Millisecond}) // unscaled: the server never answers, and the error names the 150ms
	start := time.Now()
	_, err := c.Status(context.Background())
	msg := oneLineErr(t, err)
	if want := "GET /session/status timed out after 150ms"; !strings.HasPrefix(msg, want) {
		t.Errorf("got %q, want it to start with %q", msg, want)
	}
	if !IsTimeout(err) {
		t.Errorf("kind %v", ErrorKind(err))
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("the call took %v despite its 150ms timeout", el)
	}

	// A cancel by the caller is not dressed up as a server problem.
	ctx, cancel := context.WithCancel(context.Background())
	<-arrived // the Status call's
	go func() { <-arrived; cancel() }()
	_, err = c.Sessions(ctx)
	if !errors.Is(err, context.Canceled) || ErrorKind(err) != 0 {
		t.Errorf("cancelled call: %v", err)
	}
}
