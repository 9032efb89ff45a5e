package cli

import (
	"testing"

	"github.com/octop-dev/octop/internal/watchdog"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// TestUntilDoneExitsAsResultDoes: --until-done ends on every end of its
// root, with the code `octop result` gives the same end: 0 complete, 4
// for an error, denied too (a denied root once kept watch waiting for
// ever), and aborted, which is not done.
func TestUntilDoneExitsAsResultDoes(t *testing.T) {
	const root = "ses_root"
	reply := func(completed int64, finish string, err *wire.ErrorInfo) wire.Event {
		return wire.MessageUpdated{Info: wire.Message{ID: "msg_2", SessionID: root, Role: "assistant",
			Time: wire.MessageTime{Created: 20, Completed: completed}, Finish: finish, Error: err}}
	}
	call := func(status, errText string) wire.Event {
		return wire.PartUpdated{Part: wire.Part{ID: "prt_1", MessageID: "msg_2", SessionID: root, Type: wire.PartTool,
			Tool: "bash", State: &wire.ToolState{Status: status, Error: errText, Time: wire.ToolTime{Start: 21, End: 22}}}}
	}
	for _, c := range []struct {
		name string
		end  []wire.Event
		want int
	}{
		{"complete", []wire.Event{reply(30, "stop", nil)}, codeOK},
		{"failed", []wire.Event{reply(30, "", &wire.ErrorInfo{Name: "APIError"})}, codeTaskError},
		{"aborted", []wire.Event{reply(30, "", &wire.ErrorInfo{Name: "MessageAbortedError"})}, codeTaskError},
		{"denied", []wire.Event{call(wire.ToolError, "The user rejected permission to use this specific tool call."),
			reply(30, "tool-calls", nil)}, codeTaskError},
		{"interrupted", []wire.Event{reply(0, "", nil)}, codeTaskError},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := model.New()
			wd := watchdog.New(watchdog.Config{})
			st.Apply(wire.SessionCreated{Info: wire.Session{ID: root, Time: wire.SessionTime{Created: 1, Updated: 1}}})
			wd.Resync(st, 1)
			w := &watcher{o: watchOpts{untilDone: true, root: root}, st: st, wd: wd}
			ses := wire.Session{ID: root, Time: wire.SessionTime{Created: 1, Updated: 1}}
			if !w.in.Snapshot(st, w.in.Resync(), model.Snapshot{Sessions: []wire.Session{ses}, Complete: true}, nil) {
				t.Fatal("the intake did not take the first snapshot")
			}
			feed := func(evs ...wire.Event) {
				for _, ev := range evs {
					st.Apply(ev)
				}
				wd.Events(st, evs, 100)
			}
			feed(wire.MessageUpdated{Info: wire.Message{ID: "msg_1", SessionID: root, Role: "user", Time: wire.MessageTime{Created: 10}}},
				wire.SessionStatusChanged{SessionID: root, Status: wire.SessionStatus{Type: wire.StatusBusy}})
			if code, done := w.finished(); done {
				t.Fatalf("finished with %d while the root runs", code)
			}
			feed(append(c.end, wire.SessionStatusChanged{SessionID: root, Status: wire.SessionStatus{Type: wire.StatusIdle}})...)
			k := st.StateOf(root).Kind
			code, done := w.finished()
			if !done || code != c.want {
				t.Errorf("root %v: finished %d, %v; want %d, true", k, code, done, c.want)
			}
			if want := k.Status() == model.StatusError; (code == codeTaskError) != want {
				t.Errorf("root %v: exit %d disagrees with its status %q", k, code, k.Status())
			}
		})
	}
}
