package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// outageWatch is `octop watch --json` over a fake that a test stops and
// starts again.
type outageWatch struct {
	t         *testing.T
	srv       *opencodetest.Server
	out, errb syncBuffer
	cancel    func()
	done      chan int
}

// startOutageWatch starts watch over srv and waits for its baseline.
func startOutageWatch(t *testing.T, srv *opencodetest.Server) *outageWatch {
	t.Helper()
	w := &outageWatch{t: t, srv: srv, done: make(chan int, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	go func() {
		base := client.Options{BaseURL: srv.URL(), Stream: client.StreamOptions{MinBackoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond}}
		a := &app{stdio: cmdIO{nil, &w.out, &w.errb}, base: base}
		w.done <- a.executeContext(ctx, []string{"watch", "--json"})
	}()
	t.Cleanup(w.stop)
	testwait.Eventually(t, func() bool { return strings.Contains(w.errb.String(), "watching") }, 10*time.Second, "watch to start")
	return w
}

// stop ends watch, once.
func (w *outageWatch) stop() {
	if w.cancel != nil {
		w.cancel()
		<-w.done
		w.cancel = nil
	}
}

// count is how many lines watch printed of event (of session id, when
// given).
func (w *outageWatch) count(event, id string) int {
	n := 0
	for _, l := range strings.Split(w.out.String(), "\n") {
		var e struct{ Event, ID string }
		if json.Unmarshal([]byte(l), &e) == nil && e.Event == event && (id == "" || e.ID == id) {
			n++
		}
	}
	return n
}

// await waits until watch has printed event (of id) n times in all.
func (w *outageWatch) await(n int, event, id string) {
	w.t.Helper()
	testwait.Eventually(w.t, func() bool { return w.count(event, id) >= n }, 10*time.Second,
		"watch to print %s %s %d times; it printed:\n%s", event, id, n, w.out.String())
}

// outage stops the server, lets between run while it is down, and starts
// it again; it returns once watch has read it again and a run after the
// reconnect (named after) has been printed ending, so every line of the
// resync is out.
func (w *outageWatch) outage(between func(), after string) {
	w.t.Helper()
	n := w.count("connection.restored", "")
	w.srv.Stop()
	w.await(n+1, "connection.lost", "")
	if between != nil {
		between()
	}
	w.srv.Start()
	w.await(n+1, "connection.restored", "")
	at := time.Now().UnixMilli()
	info := wire.Session{ID: after, Title: after, Time: wire.SessionTime{Created: at, Updated: at}}
	w.srv.AddSession(info)
	w.srv.Emit("session.created", map[string]any{"info": info})
	w.srv.Emit("message.updated", map[string]any{"info": wire.Message{ID: "msg_1", SessionID: after, Role: "user", Time: wire.MessageTime{Created: at}}})
	w.srv.Emit("session.status", map[string]any{"sessionID": after, "status": wire.SessionStatus{Type: wire.StatusBusy}})
	w.srv.Emit("message.updated", map[string]any{"info": wire.Message{ID: "msg_2", SessionID: after, Role: "assistant", Finish: "stop",
		Time: wire.MessageTime{Created: at + 1, Completed: at + 2}}})
	w.srv.Emit("session.status", map[string]any{"sessionID": after, "status": wire.SessionStatus{Type: wire.StatusIdle}})
	w.await(1, "session.done", after)
}

// TestWatchKeepsAsksItCouldNotRead: a session waiting on a permission and
// a question stays waiting through a reconnect whose reads of the pending
// asks fail: watch says it could not read them and prints nothing of the
// session, where it once printed it answered, then waiting again at the
// next reconnect.
func TestWatchKeepsAsksItCouldNotRead(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	const asks = "ses_asks"
	at := time.Now().UnixMilli() - 60_000
	srv.AddSession(wire.Session{ID: asks, Title: "clean the build", Time: wire.SessionTime{Created: at, Updated: at}})
	srv.SetStatus(asks, wire.SessionStatus{Type: wire.StatusBusy})
	srv.AddPermission(wire.PermissionRequest{ID: "per_1", SessionID: asks, Permission: "bash", Patterns: []string{"rm -rf build"}})
	srv.AddQuestion(wire.QuestionRequest{ID: "que_1", SessionID: asks, Questions: []wire.QuestionInfo{{Question: "Which one?"}}})
	w := startOutageWatch(t, srv)

	w.outage(func() {
		srv.Fail("GET /permission", http.StatusServiceUnavailable, "busy")
		srv.Fail("GET /question", http.StatusServiceUnavailable, "busy")
	}, "ses_after1")
	if e := w.errb.String(); !strings.Contains(e, "could not read the pending asks after connecting: GET /permission") ||
		!strings.Contains(e, "GET /question") {
		t.Errorf("watch did not say the asks went unread; stderr:\n%s", e)
	}
	w.outage(func() {
		srv.Handle("GET /permission", nil)
		srv.Handle("GET /question", nil)
	}, "ses_after2")
	w.stop()
	if strings.Contains(w.out.String(), asks) {
		t.Errorf("watch printed news of a session that waited all along:\n%s", w.out.String())
	}
}
