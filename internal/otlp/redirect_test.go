package otlp

import (
	"context"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
)

// newCollector is an OTLP collector that answers every request with
// answer: the one fake server, with every route its own. Its Requests
// say what it was sent, headers and all.
func newCollector(t *testing.T, answer http.HandlerFunc) *opencodetest.Server {
	t.Helper()
	c := opencodetest.New(t, opencodetest.Options{})
	c.HandleFunc("/", answer)
	return c
}

func accept(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.WriteHeader(http.StatusOK)
}

// export sends fanOutTree to base with the environment's headers.
func export(t *testing.T, base string) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(20*time.Second))
	defer cancel()
	e, err := New(ctx, Config{URL: base})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = e.Shutdown(ctx) }()
	_, err = e.Export(ctx, fanOutTree(t))
	return err
}

func setSecretHeaders(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "x-honeycomb-team=SECRET,Authorization=Bearer%20TOKEN")
	t.Setenv(EnvEndpoint, "")
	t.Setenv(EnvTracesEndpoint, "")
}

// TestRedirectToAnotherOriginIsRefused: a collector that answers 307 or
// 308 to another port (the same host: net/http itself would send the
// Authorization header there, and every other header anywhere) gets one
// line back naming it, and the other server is never asked, so neither
// the credentials of OTEL_EXPORTER_OTLP_HEADERS nor the trace reach it.
func TestRedirectToAnotherOriginIsRefused(t *testing.T) {
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			setSecretHeaders(t)
			other := newCollector(t, accept)
			first := newCollector(t, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, other.URL()+r.URL.Path, code)
			})
			err := export(t, first.URL())
			want := "send the trace of ses_root to " + first.URL() + "/v1/traces: the collector redirected to " +
				other.URL() + "/v1/traces, another origin"
			if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("Export = %v\nwant one line starting %q", err, want)
			}
			if got := other.Requests(); len(got) != 0 {
				t.Errorf("the other origin was sent %d requests: %v", len(got), got)
			}
			if got := first.Requests(); len(got) != 1 {
				t.Errorf("the collector was asked %d times, want once (a refusal is not retried)", len(got))
			}
		})
	}
}

// TestRedirectToAnotherHostIsRefused: localhost and 127.0.0.1 are the
// same machine but two origins; the redirect between them is refused.
func TestRedirectToAnotherHostIsRefused(t *testing.T) {
	setSecretHeaders(t)
	other := newCollector(t, accept)
	elsewhere := strings.Replace(other.URL(), "127.0.0.1", "localhost", 1)
	first := newCollector(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere+r.URL.Path, http.StatusTemporaryRedirect)
	})
	if err := export(t, first.URL()); err == nil || !strings.Contains(err.Error(), "another origin") {
		t.Errorf("Export = %v, want the redirect refused", err)
	}
	if got := other.Requests(); len(got) != 0 {
		t.Errorf("the other host was sent %d requests", len(got))
	}
}

// TestRedirectWithinTheCollectorIsFollowed: a redirect to another path of
// the same scheme, host and port is followed, the headers with it.
func TestRedirectWithinTheCollectorIsFollowed(t *testing.T) {
	setSecretHeaders(t)
	c := newCollector(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/traces" {
			http.Redirect(w, r, "/otlp/v1/traces", http.StatusTemporaryRedirect)
			return
		}
		accept(w, r)
	})
	if err := export(t, c.URL()); err != nil {
		t.Fatalf("Export: %v", err)
	}
	got := c.Requests()
	if len(got) != 2 {
		t.Fatalf("the collector was asked %d times, want 2 (the redirect and its target)", len(got))
	}
	if h := got[1].Header; h.Get("X-Honeycomb-Team") != "SECRET" || h.Get("Authorization") != "Bearer TOKEN" {
		t.Errorf("the redirected request lost its headers: %v", h)
	}
}
