package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// TestWatchUntilDoneSeesARunStartingWhileItReads: a run that starts while
// watch reads its first snapshot (the statuses say idle, the history read
// after them already holds the reply being written) is running, not cut
// short: --until-done waits for it and exits 0 when it completes, where it
// once exited 4 at once.
func TestWatchUntilDoneSeesARunStartingWhileItReads(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	const root = "ses_root"
	srv.AddSession(wire.Session{ID: root, Title: "starting", Time: wire.SessionTime{Created: 1000, Updated: 2000}})
	user := wire.MessageWithParts{Info: wire.Message{ID: "msg_1", SessionID: root, Role: "user", Agent: "build",
		Time: wire.MessageTime{Created: 1000}}}
	reply := wire.MessageWithParts{Info: wire.Message{ID: "msg_2", SessionID: root, Role: "assistant", Agent: "build",
		Time: wire.MessageTime{Created: 1500}}}
	srv.SetMessages(root, []wire.MessageWithParts{user, reply})
	// The first status read comes before the run began; every later one
	// after it.
	var reads atomic.Int32
	srv.HandleFunc("GET /session/status", func(w http.ResponseWriter, _ *http.Request) {
		st := map[string]wire.SessionStatus{}
		if reads.Add(1) > 1 {
			st[root] = wire.SessionStatus{Type: wire.StatusBusy}
		}
		_ = json.NewEncoder(w).Encode(st)
	})

	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		a := &app{stdio: cmdIO{nil, &out, &errb}, base: client.Options{BaseURL: srv.URL()}}
		done <- a.executeContext(context.Background(), []string{"watch", "--json", "--root", root, "--until-done"})
	}()
	testwait.Eventually(t, func() bool {
		select {
		case code := <-done:
			t.Fatalf("watch ended (exit %d) before the run did; stderr %q", code, errb.String())
		default:
		}
		return strings.Contains(errb.String(), "watching")
	}, 10*time.Second, "watch to start")

	reply.Info.Time.Completed, reply.Info.Finish = 1900, "stop"
	srv.SetMessages(root, []wire.MessageWithParts{user, reply})
	srv.Emit("message.updated", map[string]any{"info": reply.Info})
	srv.Emit("session.status", map[string]any{"sessionID": root, "status": wire.SessionStatus{Type: wire.StatusIdle}})
	srv.Emit("session.idle", map[string]any{"sessionID": root})
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("watch exit %d, want 0 (the run completed); stderr %q", code, errb.String())
		}
	case <-time.After(testwait.Scale(10 * time.Second)):
		t.Fatalf("watch did not end when the run completed; stdout %q stderr %q", out.String(), errb.String())
	}
	if !strings.Contains(out.String(), `"session.done"`) {
		t.Errorf("watch did not print the root's end: %q", out.String())
	}
}
