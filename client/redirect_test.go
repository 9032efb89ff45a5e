package client_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// TestRedirectToAnotherServerIsRefused: a server that redirects to
// another port (or host, or scheme) gets a one-line error back, and the
// other server gets nothing, the password least of all; the calls and
// the stream alike.
func TestRedirectToAnotherServerIsRefused(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{Password: "secret"})
	other := opencodetest.New(t, opencodetest.Options{})
	redirect := func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL()+r.URL.Path, http.StatusFound)
	}
	srv.HandleFunc("GET /session", redirect)
	srv.HandleFunc("GET /event", redirect)
	c, err := client.New(client.Options{BaseURL: srv.URL(), Password: "secret",
		Stream: client.StreamOptions{MinBackoff: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Sessions(context.Background())
	want := "GET /session: OpenCode at " + srv.URL() + " redirected to " + other.URL() + "/session, another server"
	if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("Sessions = %v, want one line starting %q", err, want)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = c.Stream(ctx, func(any) {})
	if err == nil || !strings.Contains(err.Error(), "another server") || ctx.Err() != nil {
		t.Errorf("Stream = %v, want it to stop at the redirect", err)
	}
	if got := other.Calls(); len(got) != 0 {
		t.Errorf("the other server was asked %v", got)
	}
}

// TestRedirectWithinTheServerIsFollowed: a redirect to the same scheme,
// host and port (a reverse proxy's new path) is followed, the password
// with it.
func TestRedirectWithinTheServerIsFollowed(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{Password: "secret"})
	srv.AddSession(wire.Session{ID: "ses_a", Title: "a"})
	srv.HandleFunc("GET /old/session", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/session", http.StatusMovedPermanently)
	})
	c, err := client.New(client.Options{BaseURL: srv.URL() + "/old", Password: "secret"})
	if err != nil {
		t.Fatal(err)
	}
	if ss, err := c.Sessions(context.Background()); err != nil || len(ss) != 1 {
		t.Fatalf("Sessions = %v, %v", ss, err)
	}
}
