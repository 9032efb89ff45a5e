package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// TestEachSession: the list comes one session at a time, in the server's
// order; fn's own error stops it and comes back as it is; null is no
// session; a list cut short or broken midway is a malformed answer, one
// line quoting its start.
func TestEachSession(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	var answer atomic.Value // the handler runs on the server's goroutines
	srv.HandleFunc("GET /session", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(answer.Load().(string)))
	})
	c, err := client.New(client.Options{BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	each := func() ([]string, error) {
		var ids []string
		err := c.EachSession(context.Background(), func(s *wire.Session) error {
			ids = append(ids, s.ID)
			if s.ID == "ses_stop" {
				return errStop
			}
			return nil
		})
		return ids, err
	}
	answer.Store(`[{"id":"ses_a","title":"a"}, {"id":"ses_b","parentID":"ses_a","title":"b"}]`)
	if ids, err := each(); err != nil || strings.Join(ids, ",") != "ses_a,ses_b" {
		t.Fatalf("got %v, %v", ids, err)
	}
	answer.Store(`null`)
	if ids, err := each(); err != nil || len(ids) != 0 {
		t.Fatalf("null: got %v, %v", ids, err)
	}
	answer.Store(`[{"id":"ses_a"},{"id":"ses_stop"},{"id":"ses_c"}]`)
	if ids, err := each(); !errors.Is(err, errStop) || len(ids) != 2 {
		t.Fatalf("stopped: got %v, %v", ids, err)
	}
	for _, bad := range []string{`[{"id":"ses_a"},{"id":`, `[{"id":"ses_a"} {"id":"ses_b"}]`, `{"id":"ses_a"}`, `[] []`, ``} {
		answer.Store(bad)
		_, err := each()
		if err == nil || client.ErrorKind(err) != client.KindBadResponse || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: got %v (%v), want a malformed answer", bad, err, client.ErrorKind(err))
		}
	}
}

var errStop = errors.New("stop here")

// TestSessionsListsMoreThanAHundred: a 1.18 server lists only the 100
// most recently updated sessions unless the request names a limit (the
// fake plays that), so the list asks for every one: 150 come back.
func TestSessionsListsMoreThanAHundred(t *testing.T) {
	for _, v := range []string{opencodetest.V118, opencodetest.V11} {
		srv := opencodetest.New(t, opencodetest.Options{Version: v})
		for i := range 150 {
			srv.AddSession(wire.Session{ID: fmt.Sprintf("ses_%03d", i), Title: "s", Time: wire.SessionTime{Created: int64(i + 1), Updated: int64(i + 1)}})
		}
		c, err := client.New(client.Options{BaseURL: srv.URL()})
		if err != nil {
			t.Fatal(err)
		}
		if ss, err := c.Sessions(context.Background()); err != nil || len(ss) != 150 {
			t.Errorf("%s: listed %d sessions (err %v), want all 150", v, len(ss), err)
		}
	}
}
