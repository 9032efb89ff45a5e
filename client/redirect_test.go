package client_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
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
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(10*time.Second))
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

// TestRedirectOfAPostToAnotherPortIsRefused: a 307 or 308 keeps the
// method and the body, and net/http keeps the Authorization header when
// only the port changes; octop refuses it, so the other port sees neither
// the password nor the request.
func TestRedirectOfAPostToAnotherPortIsRefused(t *testing.T) {
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			srv := opencodetest.New(t, opencodetest.Options{Password: "secret"})
			other := opencodetest.New(t, opencodetest.Options{})
			srv.HandleFunc("POST /session/{id}/abort", func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, other.URL()+r.URL.Path, code)
			})
			c, err := client.New(client.Options{BaseURL: srv.URL(), Password: "secret"})
			if err != nil {
				t.Fatal(err)
			}
			err = c.Abort(context.Background(), "ses_a")
			if err == nil || !strings.Contains(err.Error(), "another server") || strings.Contains(err.Error(), "\n") {
				t.Errorf("Abort = %v, want one line saying the redirect went to another server", err)
			}
			if got := other.Requests(); len(got) != 0 {
				t.Errorf("the other port was sent %v", got)
			}
		})
	}
}

// TestSameOrigin: scheme, host and port, a left-out port being its
// scheme's default.
func TestSameOrigin(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"http://h:4096/x", "http://h:4096/y?q", true},
		{"http://h/x", "http://h:80/x", true},
		{"https://h/x", "https://H:443/y", true},
		{"http://h:4096/x", "http://h:4097/x", false},
		{"http://h/x", "https://h/x", false},
		{"http://127.0.0.1:1/", "http://localhost:1/", false},
		{"https://h/x", "https://h.evil/x", false},
	} {
		a, _ := url.Parse(c.a)
		b, _ := url.Parse(c.b)
		if got := client.SameOrigin(a, b); got != c.same {
			t.Errorf("SameOrigin(%s, %s) = %v, want %v", c.a, c.b, got, c.same)
		}
	}
}
