package watchdog

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// step is one moment of a scenario: events arriving, a tick, a resync, or
// a connection change, at second `at`.
type step struct {
	at     int64
	evs    []wire.Event
	tick   bool
	resync bool
	conn   *wire.ConnState
	silent bool // applied to the model only, as a snapshot read does
}

func evs(at int64, e ...wire.Event) step     { return step{at: at, evs: e} }
func quietly(at int64, e ...wire.Event) step { return step{at: at, evs: e, silent: true} }
func tick(at int64) step                     { return step{at: at, tick: true} }
func resync(at int64) step                   { return step{at: at, resync: true} }
func conn(at int64, s wire.State) step       { return step{at: at, conn: &wire.ConnState{State: s}} }

// run plays the steps through a model and a Watchdog (primed by a resync
// at 0 unless the steps start with their own, or with a silent step) and returns what came out,
// one string each: "session.started ses_a", "abort ses_a loop".
func run(t *testing.T, cfg Config, steps []step) (*model.State, *Watchdog, []string) {
	t.Helper()
	st, w := model.New(), New(cfg)
	var got []string
	if len(steps) == 0 || !steps[0].resync && !steps[0].silent {
		w.Resync(st, 0)
	}
	for i, s := range steps {
		now := s.at * 1000
		st.SetNow(now) // as the screen and watch do, before each step
		var out Out
		switch {
		case s.resync:
			out = w.Resync(st, now)
		case s.tick:
			out = w.Tick(st, now)
		case s.conn != nil:
			out = w.Conn(*s.conn, now)
		default:
			for _, e := range s.evs {
				st.Apply(e)
			}
			if !s.silent {
				out = w.Events(st, s.evs, now)
			}
		}
		for _, e := range out.Events {
			got = append(got, strings.TrimSpace(e.Name+" "+e.ID))
		}
		for _, a := range out.Aborts {
			got = append(got, fmt.Sprintf("abort %s %s", a.ID, a.Kind))
		}
		if n := recount(w); w.Marked() != n {
			t.Errorf("after step %d: Marked() = %d, but %d sessions carry marks", i, w.Marked(), n)
		}
	}
	return st, w, got
}

// recount is Marked the slow way: every track looked at.
func recount(w *Watchdog) int {
	n := 0
	for id := range w.tracks {
		if len(w.Marks(id)) > 0 {
			n++
		}
	}
	return n
}

func created(id, parent string) wire.Event {
	return wire.SessionCreated{Info: wire.Session{ID: id, ParentID: parent, Title: "task " + id, Agent: "general",
		Time: wire.SessionTime{Created: 1, Updated: 1}}}
}

// msg is a message of session id: n 1 is the prompt, 2 the reply.
func msg(id string, n int, done bool) wire.Event {
	m := wire.Message{ID: fmt.Sprintf("msg_%04d", n), SessionID: id, Role: "user", Time: wire.MessageTime{Created: int64(n)}}
	if n > 1 {
		m.Role = "assistant"
	}
	if done {
		m.Time.Completed, m.Finish = int64(n)+1, "stop"
	}
	return wire.MessageUpdated{Info: m}
}

// run1 is a session created and running: its prompt, busy, a reply begun.
func run1(id, parent string) []wire.Event {
	return []wire.Event{created(id, parent), msg(id, 1, false), busy(id), msg(id, 2, false)}
}

// finish is the reply completing and the session going idle.
func finish(id string) []wire.Event { return []wire.Event{msg(id, 2, true), idle(id)} }

func busy(id string) wire.Event {
	return wire.SessionStatusChanged{SessionID: id, Status: wire.SessionStatus{Type: wire.StatusBusy}}
}

func idle(id string) wire.Event {
	return wire.SessionStatusChanged{SessionID: id, Status: wire.SessionStatus{Type: wire.StatusIdle}}
}

func sessErr(id, name string) wire.Event {
	return wire.SessionError{SessionID: id, Error: &wire.ErrorInfo{Name: name, Data: wire.ErrorInfoData{Message: "boom"}}}
}

// call is tool call number n of session id, in the given state.
func call(id string, n int, tool, command, status string) wire.Event {
	in, _ := json.Marshal(map[string]string{"command": command})
	st := &wire.ToolState{Status: status, Input: in, Time: wire.ToolTime{Start: int64(n)}}
	if status == wire.ToolError {
		st.Error = "exit status 1"
	}
	return wire.PartUpdated{Part: wire.Part{ID: fmt.Sprintf("prt_%04d", n), SessionID: id, MessageID: "msg_0002",
		Type: wire.PartTool, Tool: tool, CallID: fmt.Sprint("c", n), State: st}}
}

// calls is n completed calls of the same command, numbered from first.
func calls(id string, first, n int, command string) []wire.Event {
	var out []wire.Event
	for i := first; i < first+n; i++ {
		out = append(out, call(id, i, "bash", command, wire.ToolCompleted))
	}
	return out
}

// bgCall is a task call of session id that launched child in the
// background (1.18): completed at once, metadata.background.
func bgCall(id, child string) wire.Event {
	md, _ := json.Marshal(map[string]any{"sessionId": child, "background": true, "jobId": child})
	return wire.PartUpdated{Part: wire.Part{ID: "prt_0100", SessionID: id, MessageID: "msg_0002", Type: wire.PartTool,
		Tool: "task", CallID: "bg", State: &wire.ToolState{Status: wire.ToolCompleted, Metadata: md,
			Output: `<task id="` + child + `" state="running">`}}}
}

// notice is child's end notice reaching session id: a user message (n 3)
// whose text part is synthetic.
func notice(id, child, state string) []wire.Event {
	user := wire.MessageUpdated{Info: wire.Message{ID: "msg_0003", SessionID: id, Role: "user", Time: wire.MessageTime{Created: 3}}}
	return []wire.Event{user, wire.PartUpdated{Part: wire.Part{ID: "prt_0200", SessionID: id, MessageID: "msg_0003",
		Type: wire.PartText, Synthetic: true, Text: `<task id="` + child + `" state="` + state + `">` + "\n<summary>Background task completed: x</summary>"}}}
}

func text(id, part, words string) wire.Event {
	return wire.PartUpdated{Part: wire.Part{ID: part, SessionID: id, MessageID: "msg_0002", Type: wire.PartText, Text: words}}
}

func delta(id, part string) wire.Event {
	return wire.PartDelta{SessionID: id, MessageID: "msg_0002", PartID: part, Field: "text", Delta: " more"}
}

func spend(id, msg string, tokens, cost float64) wire.Event {
	return wire.MessageUpdated{Info: wire.Message{ID: msg, SessionID: id, Role: "assistant", Cost: cost,
		Tokens: wire.Tokens{Input: tokens}, Time: wire.MessageTime{Created: 2, Completed: 3}}}
}

func ask(id, req string) wire.Event {
	return wire.PermissionAsked{Request: wire.PermissionRequest{ID: req, SessionID: id, Permission: "bash"}}
}

func reply(id, req string) wire.Event {
	return wire.PermissionReplied{SessionID: id, RequestID: req, Reply: "once"}
}

func join(parts ...[]wire.Event) []wire.Event {
	var out []wire.Event
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
