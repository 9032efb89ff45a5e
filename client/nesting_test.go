package client

import (
	"context"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
)

// deep is a JSON value nested n levels: n "[" then n "]".
func deep(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// allocated is how many bytes f allocates.
func allocated(f func()) uint64 {
	runtime.GC()
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestStreamSkipsADeepEvent: an event nested a million levels deep (2 MB)
// is skipped as a decode error, in memory a small multiple of its size,
// and the stream goes on to the next event.
func TestStreamSkipsADeepEvent(t *testing.T) {
	c, err := New(Options{BaseURL: "http://127.0.0.1:1", Stream: StreamOptions{IdleTimeout: -1}})
	if err != nil {
		t.Fatal(err)
	}
	body := "data: {\"type\":\"session.updated\",\"properties\":{\"info\":" + deep(1<<20) + "}}\n\n" +
		"data: {\"type\":\"session.idle\",\"properties\":{\"sessionID\":\"ses_a\"}}\n\n"
	var sent []string
	var rerr error
	n := allocated(func() { sent, rerr = readSent(t, c, strings.NewReader(body)) })
	if rerr != nil || len(sent) != 2 || !strings.HasPrefix(sent[0], "decode error: ") || !strings.Contains(sent[1], "ses_a") {
		t.Fatalf("sent %d: %.80q (%v), want the deep event skipped and the next one decoded", len(sent), sent, rerr)
	}
	if n > 16*uint64(len(body)) {
		t.Errorf("reading a %d-byte stream allocated %d bytes", len(body), n)
	}
}

// TestListRefusesADeepAnswer: a session list with an
// element nested a million levels deep is refused with one line, in
// memory a small multiple of its size, never a stack overflow.
func TestListRefusesADeepAnswer(t *testing.T) {
	body := `[{"id":"ses_a","title":"a"},{"id":"ses_b","title":` + deep(1<<20) + `}]`
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	})
	c, err := New(Options{BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	for name, call := range map[string]func() error{
		"EachSession": func() error { _, err := c.Sessions(context.Background()); return err },
		"do":          func() error { _, err := c.Agents(context.Background()); return err },
	} {
		var err error
		n := allocated(func() { err = call() })
		if err == nil || !strings.Contains(err.Error(), "exceeded max depth") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s = %v, want one line saying it is nested too deep", name, err)
		}
		if n > 16*uint64(len(body)) {
			t.Errorf("%s: reading a %d-byte answer allocated %d bytes", name, len(body), n)
		}
	}
}
