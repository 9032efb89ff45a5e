package client

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// TestHistory: every session's messages arrive, no more than parallel
// reads run at once, a deleted session is skipped, and each read names
// the session's own directory.
func TestHistory(t *testing.T) {
	var inFlight, peak atomic.Int32
	var mu sync.Mutex
	dirs := map[string]string{}
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		id := strings.Split(strings.TrimPrefix(r.URL.Path, "/session/"), "/")[0]
		mu.Lock()
		dirs[id] = r.Header.Get("x-opencode-directory") + r.URL.Query().Get("directory")
		mu.Unlock()
		time.Sleep(2 * time.Millisecond) // let reads overlap
		if id == "ses_gone" {
			http.Error(w, `{"name":"NotFoundError"}`, http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`[{"info":{"id":"msg_1","sessionID":"` + id + `","role":"user"},"parts":[]}]`))
	})
	c := mustNew(t, Options{BaseURL: srv.URL(), Directory: "/home"})
	var reqs []HistoryRequest
	for _, id := range []string{"ses_a", "ses_b", "ses_c", "ses_d", "ses_e", "ses_f", "ses_gone"} {
		reqs = append(reqs, HistoryRequest{ID: id})
	}
	reqs[1].Directory = "/elsewhere"
	got := map[string]int{}
	err := c.History(context.Background(), reqs, 2, func(id string, msgs []wire.MessageWithParts) {
		mu.Lock()
		got[id] = len(msgs)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 6 || got["ses_a"] != 1 || got["ses_gone"] != 0 {
		t.Fatalf("got %v", got)
	}
	if p := peak.Load(); p > 2 {
		t.Fatalf("%d reads at once, want at most 2", p)
	}
	// The server's handlers wrote dirs on their own goroutines: a reply
	// on the socket is no happens-before edge the race detector sees.
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(dirs["ses_b"], "elsewhere") || !strings.Contains(dirs["ses_a"], "home") {
		t.Fatalf("directories asked: %v", dirs)
	}
}

// TestHistoryStopsOnError: a server error ends the reads with it.
func TestHistoryStopsOnError(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	})
	c := mustNew(t, Options{BaseURL: srv.URL()})
	err := c.History(context.Background(), []HistoryRequest{{ID: "ses_a"}}, 1, func(string, []wire.MessageWithParts) {
		t.Error("got called for a failed read")
	})
	if err == nil {
		t.Fatal("no error")
	}
}

// TestTransportKeepsHistoryConnections: the transport keeps enough idle
// connections to a server for HistoryParallel readers and a snapshot's
// as many at once; net/http keeps 2, and the others were closed after
// each read and dialled again (1,672 times for 50,000 histories).
func TestTransportKeepsHistoryConnections(t *testing.T) {
	if n := newTransport().MaxIdleConnsPerHost; n < 2*HistoryParallel {
		t.Fatalf("%d idle connections kept per server, want at least %d", n, 2*HistoryParallel)
	}
}

// TestHistoryReusesNoAnswer: answers read into reused buffers, four at a
// time, each decode into its own session's messages and nothing else's.
func TestHistoryReusesNoAnswer(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	var reqs []HistoryRequest
	for i := range 200 {
		id := fmt.Sprintf("ses_%03d", i)
		srv.AddSession(wire.Session{ID: id})
		srv.SetMessages(id, []wire.MessageWithParts{{Info: wire.Message{ID: "msg_" + id, SessionID: id, Role: "user",
			Agent: strings.Repeat("x", i)}}})
		reqs = append(reqs, HistoryRequest{ID: id})
	}
	c := mustNew(t, Options{BaseURL: srv.URL()})
	var mu sync.Mutex
	got := map[string]wire.Message{}
	err := c.History(context.Background(), reqs, HistoryParallel, func(id string, msgs []wire.MessageWithParts) {
		mu.Lock()
		defer mu.Unlock()
		got[id] = msgs[0].Info
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range reqs {
		if m := got[r.ID]; m.ID != "msg_"+r.ID || len(m.Agent) != i {
			t.Errorf("%s: got %s with a %d-byte agent", r.ID, m.ID, len(m.Agent))
		}
	}
}
