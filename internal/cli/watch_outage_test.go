package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
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

// TestWatchTellsARunMadeWhileAway: a baseline root, idle and finished
// (watch reads no history at its baseline), runs and fails while watch
// is disconnected: after the reconnect watch prints its failure, once,
// reading the history of only the sessions that changed while it was
// away. A root that did not change gets no line, and neither does one
// the server only touched (a late summary of its old run).
func TestWatchTellsARunMadeWhileAway(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	at := time.Now().UnixMilli() - 60_000
	for _, id := range []string{"ses_ran", "ses_calm", "ses_touched"} {
		srv.AddSession(wire.Session{ID: id, Title: id, Time: wire.SessionTime{Created: at, Updated: at + 9_500}})
		srv.SetMessages(id, loopedRun(id, at, 1))
	}
	w := startOutageWatch(t, srv)

	w.outage(func() {
		rerun := time.Now().UnixMilli()
		failed := append(loopedRun("ses_ran", at, 1),
			wire.MessageWithParts{Info: wire.Message{ID: "msg_3", SessionID: "ses_ran", Role: "user", Agent: "build",
				Time: wire.MessageTime{Created: rerun}}},
			wire.MessageWithParts{Info: wire.Message{ID: "msg_4", SessionID: "ses_ran", Role: "assistant", Agent: "build",
				Time:  wire.MessageTime{Created: rerun + 10, Completed: rerun + 20},
				Error: &wire.ErrorInfo{Name: "APIError", Data: wire.ErrorInfoData{Message: "the provider is down"}}}})
		srv.SetMessages("ses_ran", failed)
		srv.AddSession(wire.Session{ID: "ses_ran", Title: "ses_ran", Time: wire.SessionTime{Created: at, Updated: rerun + 30}})
		srv.AddSession(wire.Session{ID: "ses_touched", Title: "ses_touched", Time: wire.SessionTime{Created: at, Updated: at + 20_000}})
	}, "ses_after1")
	w.outage(nil, "ses_after2") // nothing changed: nothing is news
	w.stop()
	if n := w.count("session.failed", "ses_ran"); n != 1 {
		t.Errorf("watch printed ses_ran failed %d times, want once:\n%s", n, w.out.String())
	}
	for _, id := range []string{"ses_calm", "ses_touched"} {
		if strings.Contains(w.out.String(), id) {
			t.Errorf("watch printed news of %s, which did not run:\n%s", id, w.out.String())
		}
	}
	var read []string // of the baseline's sessions: a run after the reconnect may be new to a resync
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/message") && !strings.HasPrefix(r.Path, "/session/ses_after") {
			read = append(read, r.Path)
		}
	}
	slices.Sort(read)
	if want := []string{"/session/ses_ran/message", "/session/ses_touched/message"}; !slices.Equal(slices.Compact(read), want) {
		t.Errorf("watch read the histories %v, want those of the sessions changed while away, %v", read, want)
	}
}
