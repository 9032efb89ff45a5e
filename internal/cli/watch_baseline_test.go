package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// loopedRun is the history of a root that called `echo same again` n
// times from its prompt at `at`, then completed.
func loopedRun(id string, at int64, n int) []wire.MessageWithParts {
	user := wire.MessageWithParts{Info: wire.Message{ID: "msg_1", SessionID: id, Role: "user", Agent: "build",
		Time: wire.MessageTime{Created: at}}}
	reply := wire.MessageWithParts{Info: wire.Message{ID: "msg_2", SessionID: id, Role: "assistant", Agent: "build",
		Finish: "stop", Tokens: wire.Tokens{Input: 100}, Time: wire.MessageTime{Created: at + 100, Completed: at + 9000}}}
	for i := range n {
		reply.Parts = append(reply.Parts, wire.Part{ID: fmt.Sprintf("prt_%d", i), SessionID: id, MessageID: "msg_2",
			Type: wire.PartTool, Tool: "bash", CallID: fmt.Sprint(i), State: &wire.ToolState{Status: wire.ToolCompleted,
				Input: json.RawMessage(`{"command":"echo same again"}`), Time: wire.ToolTime{Start: at + 200, End: at + 300}}})
	}
	return []wire.MessageWithParts{user, reply}
}

// TestWatchLateSummaryOfAnOldRunIsNoNews: octop watch takes a root that
// ended before it started as the baseline, also when the server's late
// word of the root's last prompt (sent again with its summary, after the
// run) comes after watch's first read, and after the server restarts:
// watch prints nothing of it, where it once printed it starting, and
// after the restart its end and its loop.
func TestWatchLateSummaryOfAnOldRunIsNoNews(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	const old = "ses_old"
	at := time.Now().UnixMilli() - 60_000
	srv.AddSession(wire.Session{ID: old, Title: "old looper", Time: wire.SessionTime{Created: at, Updated: at + 20_000}})
	srv.SetMessages(old, loopedRun(old, at, 4))

	var out, errb syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		base := client.Options{BaseURL: srv.URL(), Stream: client.StreamOptions{MinBackoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond}}
		a := &app{stdio: cmdIO{nil, &out, &errb}, base: base}
		done <- a.executeContext(ctx, []string{"watch", "--json", "--loop", "3"})
	}()
	printed := func(what, event, id string) {
		t.Helper()
		testwait.Eventually(t, func() bool {
			for _, l := range strings.Split(out.String(), "\n") {
				var e struct{ Event, ID string }
				if json.Unmarshal([]byte(l), &e) == nil && e.Event == event && e.ID == id {
					return true
				}
			}
			return false
		}, 10*time.Second, "%s; it printed:\n%s", what, out.String())
	}
	testwait.Eventually(t, func() bool { return strings.Contains(errb.String(), "watching") }, 10*time.Second, "watch to start")

	srv.Emit("session.updated", map[string]any{"info": wire.Session{ID: old, Title: "old looper",
		Time: wire.SessionTime{Created: at, Updated: at + 21_000}}})
	srv.Emit("message.updated", map[string]any{"info": loopedRun(old, at, 0)[0].Info})
	run := func(id string, sec int64) {
		srv.AddSession(wire.Session{ID: id, Title: id, Time: wire.SessionTime{Created: at + sec, Updated: at + sec}})
		srv.Emit("session.created", map[string]any{"info": wire.Session{ID: id, Title: id, Time: wire.SessionTime{Created: at + sec, Updated: at + sec}}})
		srv.Emit("message.updated", map[string]any{"info": wire.Message{ID: "msg_9", SessionID: id, Role: "user", Time: wire.MessageTime{Created: at + sec}}})
		srv.Emit("session.status", map[string]any{"sessionID": id, "status": wire.SessionStatus{Type: wire.StatusBusy}})
		srv.Emit("message.updated", map[string]any{"info": wire.Message{ID: "msg_a", SessionID: id, Role: "assistant", Finish: "stop",
			Time: wire.MessageTime{Created: at + sec + 1, Completed: at + sec + 2}}})
		srv.Emit("session.status", map[string]any{"sessionID": id, "status": wire.SessionStatus{Type: wire.StatusIdle}})
	}
	run("ses_before", 30_000) // after the late word, on the same stream
	printed("the run after the late word to end", "session.done", "ses_before")

	srv.Stop()
	printed("watch to lose the server", "connection.lost", "")
	srv.Start()
	printed("watch to be back", "connection.restored", "")
	run("ses_after", 40_000)
	printed("the run after the restart to end", "session.done", "ses_after")
	cancel()
	<-done
	if strings.Contains(out.String(), old) {
		t.Errorf("watch printed old news:\n%s", out.String())
	}
}
