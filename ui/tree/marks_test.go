package tree

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/octop-dev/octop/internal/testkit/colourtest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

// endStates builds one root per session state, each from the events that
// put a real session there.
func endStates() *model.State {
	st := model.New()
	msg := func(id, sess, role string, done bool, e *wire.ErrorInfo) wire.Event {
		m := wire.Message{ID: id, SessionID: sess, Role: role, Error: e, Time: wire.MessageTime{Created: 2}}
		if done {
			m.Time.Completed, m.Finish = 3, "stop"
		}
		return wire.MessageUpdated{Info: m}
	}
	call := func(sess, status, errText string) wire.Event {
		return wire.PartUpdated{Part: wire.Part{ID: "prt_1", SessionID: sess, MessageID: "msg_2", Type: wire.PartTool,
			Tool: "bash", State: &wire.ToolState{Status: status, Error: errText, Title: "go test ./..."}}}
	}
	status := func(sess, typ string) wire.Event {
		return wire.SessionStatusChanged{SessionID: sess, Status: wire.SessionStatus{Type: typ, Attempt: 2}}
	}
	scenarios := []struct {
		name string
		evs  func(id string) []wire.Event
	}{
		{"running", func(id string) []wire.Event { return []wire.Event{status(id, "busy"), call(id, "running", "")} }},
		{"waiting", func(id string) []wire.Event {
			return []wire.Event{status(id, "busy"), wire.PermissionAsked{Request: wire.PermissionRequest{ID: "per_" + id, SessionID: id, Permission: "bash"}}}
		}},
		{"retrying", func(id string) []wire.Event { return []wire.Event{status(id, "retry")} }},
		{"complete", func(id string) []wire.Event {
			return []wire.Event{msg("msg_2", id, "assistant", true, nil), status(id, "idle")}
		}},
		{"failed", func(id string) []wire.Event {
			return []wire.Event{msg("msg_2", id, "assistant", true, &wire.ErrorInfo{Name: "APIError"}), status(id, "idle")}
		}},
		{"aborted", func(id string) []wire.Event {
			return []wire.Event{msg("msg_2", id, "assistant", true, &wire.ErrorInfo{Name: "MessageAbortedError"}), status(id, "idle")}
		}},
		{"interrupted", func(id string) []wire.Event {
			return []wire.Event{msg("msg_2", id, "assistant", false, nil), status(id, "idle")}
		}},
		{"denied", func(id string) []wire.Event {
			return []wire.Event{msg("msg_2", id, "assistant", true, nil),
				call(id, "error", "The user rejected permission to use this specific tool call."), status(id, "idle")}
		}},
		{"idle", func(id string) []wire.Event { return []wire.Event{status(id, "idle")} }},
		{"background", func(id string) []wire.Event {
			kid := "ses_bgkid"
			return []wire.Event{msg("msg_2", id, "assistant", true, nil),
				wire.PartUpdated{Part: wire.Part{ID: "prt_1", SessionID: id, MessageID: "msg_2", Type: wire.PartTool, Tool: "task",
					State: &wire.ToolState{Status: "completed", Title: "worker", Metadata: []byte(`{"sessionId":"ses_bgkid","background":true}`)}}},
				wire.SessionCreated{Info: wire.Session{ID: kid, ParentID: id, Title: "worker (@general subagent)",
					Time: wire.SessionTime{Created: 200, Updated: 200}}},
				msg("msg_1", kid, "user", false, nil), status(kid, "busy"), status(id, "idle")}
		}},
	}
	// Not loaded (first: a snapshot sets the pending requests): listed, idle, its messages not read yet.
	st.ApplySnapshot(model.Snapshot{Sessions: []wire.Session{{ID: "ses_old", Title: "not loaded",
		Time: wire.SessionTime{Created: 1, Updated: 1}}}})
	for i, sc := range scenarios {
		id := fmt.Sprintf("ses_%d", i)
		st.Apply(wire.SessionCreated{Info: wire.Session{ID: id, Title: sc.name,
			Time: wire.SessionTime{Created: int64(100 - i), Updated: int64(100 - i)}}})
		if sc.name != "idle" {
			st.Apply(msg("msg_1", id, "user", false, nil))
		}
		for _, ev := range sc.evs(id) {
			st.Apply(ev)
		}
	}
	return st
}

// TestMarkGolden: every state's mark, word and colour on a row, in
// colour and in NO_COLOR.
func TestMarkGolden(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		t.Run(map[bool]string{false: "color", true: "nocolor"}[noColor], func(t *testing.T) {
			st := endStates()
			m := New(styles.New(true, noColor))
			m.SetSize(60, 14)
			m.SetState(st)
			m.SetClock(10_000, "*")
			out := m.View()
			if e := colourtest.Escape(out); noColor && e != "" {
				t.Fatalf("NO_COLOR output has a colour escape:\n%q", out)
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
}
