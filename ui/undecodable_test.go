package ui

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// TestUndecodableSessionOnTheScreen: a server lists ses_b, ses_a's child,
// with a number for its title. The tree still shows every session, and
// ses_b in its place under ses_a, marked with what was wrong; the client
// says so (what the screen shows as a notice).
func TestUndecodableSessionOnTheScreen(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.AddSession(wire.Session{ID: "ses_a", Title: "root a", Time: wire.SessionTime{Created: 1_000, Updated: 1_000}})
	srv.AddSession(wire.Session{ID: "ses_b", ParentID: "ses_a", Time: wire.SessionTime{Created: 2_000, Updated: 2_000}})
	srv.AddSession(wire.Session{ID: "ses_c", Title: "root c", Time: wire.SessionTime{Created: 3_000, Updated: 3_000}})
	srv.HandleFunc("GET /session", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`[{"id":"ses_c","title":"root c","time":{"created":3000,"updated":3000}},` +
			`{"id":"ses_b","parentID":"ses_a","title":42,"time":{"created":2000,"updated":2000}},` +
			`{"id":"ses_a","title":"root a","time":{"created":1000,"updated":1000}}]`))
	})
	var mu sync.Mutex
	var heard []string
	c, err := client.New(client.Options{BaseURL: srv.URL(), Undecodable: func(u wire.Undecodable) {
		mu.Lock()
		defer mu.Unlock()
		heard = append(heard, u.Error())
	}})
	if err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, 160, 12, func(o *Options) { o.Server = live.New(c) })
	d := driver(t, m).Send(wire.ResyncNeeded{})
	d.Expect("root c", "root a", "� undecodable session ses_b: title is a number")
	lines := strings.Split(d.Screen(), "\n")
	a, b := -1, -1
	for i, l := range lines {
		switch {
		case strings.Contains(l, "root a"):
			a = i
		case strings.Contains(l, "ses_b"):
			b = i
		}
	}
	if a < 0 || b != a+1 || !strings.Contains(lines[b], "└─") {
		t.Errorf("ses_b is not drawn under ses_a:\n%s", d.Screen())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(heard) != 1 || heard[0] != "undecodable session ses_b: title is a number" {
		t.Errorf("the client said %q", heard)
	}
}
