package model

import (
	"encoding/json"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// The shapes a real server leaves in a call an abort cut (1.18.33's from
// a recorded abort, 1.1.65's from a real one) and their near misses.
const (
	cutOutput118 = "(no output)\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>"
	cutMeta118   = `{"output":"(no output)\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>","exit":null,"truncated":false}`
)

func TestCallStatus(t *testing.T) {
	for _, c := range []struct {
		name    string
		st      *wire.ToolState
		session Kind
		want    ToolStatus
	}{
		{"1.18 bash killed by an abort", &wire.ToolState{Status: "completed", Output: cutOutput118, Metadata: json.RawMessage(cutMeta118)}, KindComplete, ToolAborted},
		{"1.18 bash that printed the note itself and exited", &wire.ToolState{Status: "completed", Output: "User aborted the command",
			Metadata: json.RawMessage(`{"output":"User aborted the command","exit":0}`)}, KindRunning, ToolCompleted},
		{"a command that failed", &wire.ToolState{Status: "completed", Metadata: json.RawMessage(`{"exit":3}`)}, KindRunning, ToolCompleted},
		{"1.1.65 call open at the abort", &wire.ToolState{Status: "error", Error: "Tool execution aborted"}, KindComplete, ToolAborted},
		{"1.18 call closed by its abort", &wire.ToolState{Status: "error", Error: "Tool execution aborted",
			Metadata: json.RawMessage(`{"interrupted":true}`)}, KindComplete, ToolAborted},
		{"a task whose child was aborted", &wire.ToolState{Status: "error", Error: "Task cancelled"}, KindRunning, ToolAborted},
		{"a read of a missing file", &wire.ToolState{Status: "error", Error: "File not found: /x"}, KindComplete, ToolError},
		{"running, session runs", &wire.ToolState{Status: "running"}, KindRunning, ToolRunning},
		{"running, session stopped", &wire.ToolState{Status: "running"}, KindInterrupted, ToolInterrupted},
		{"pending, session failed", &wire.ToolState{Status: "pending"}, KindFailed, ToolInterrupted},
		{"running, session aborted", &wire.ToolState{Status: "running"}, KindAborted, ToolAborted},
		{"running, session stopping", &wire.ToolState{Status: "running"}, KindRunning, ToolRunning},
		{"no state", nil, KindRunning, ToolPending},
	} {
		if got := CallStatus(c.st, c.session); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	for st, w := range map[ToolStatus]string{ToolPending: "pending", ToolRunning: "running", ToolCompleted: "completed",
		ToolError: "error", ToolAborted: "aborted", ToolInterrupted: "interrupted"} {
		if st.String() != w {
			t.Errorf("%d.String() = %q, want %q", st, st.String(), w)
		}
	}
}

// TestCutCallIsAbortedAtOnce: on 1.18 the server stores the bash call an
// abort killed as completed, and writes the reply's MessageAbortedError a
// moment later; read in between (REST: no session.error), the session is
// aborted already, its call aborted, never ✓ and never interrupted.
func TestCutCallIsAbortedAtOnce(t *testing.T) {
	const P = "ses_p"
	s := New()
	s.ApplySnapshot(Snapshot{Sessions: []wire.Session{{ID: P, Time: wire.SessionTime{Created: 1, Updated: 1}}}, Complete: true,
		Messages: map[string][]wire.MessageWithParts{P: {
			{Info: wire.Message{ID: "msg_1", SessionID: P, Role: "user", Time: wire.MessageTime{Created: 10}}},
			{Info: wire.Message{ID: "msg_2", SessionID: P, Role: "assistant", Time: wire.MessageTime{Created: 11}},
				Parts: []wire.Part{{ID: "prt_1", SessionID: P, MessageID: "msg_2", Type: wire.PartTool, Tool: "bash",
					State: &wire.ToolState{Status: "completed", Output: cutOutput118, Metadata: json.RawMessage(cutMeta118),
						Time: wire.ToolTime{Start: 12, End: 20}}}}},
		}}})
	ss := s.Session(P)
	if st := s.StateOf(P); st.Kind != KindAborted || st.Reason != ReasonAborted {
		t.Errorf("state %+v, want aborted", st)
	}
	if got := ss.CallStatus(0); got != ToolAborted {
		t.Errorf("the cut call shows %v, want aborted", got)
	}
	if c := s.Counts(P); c.ToolsAborted != 1 || c.ToolsDone != 0 || c.Tools() != 1 {
		t.Errorf("counts %+v, want the call aborted, not done", c)
	}
	// A later run answers the abort: the cut call is history.
	s.Apply(userMsg(P, "msg_3", 30))
	s.Apply(status(P, "busy"))
	s.Apply(asstMsg(P, "msg_4", 10, 0, 31, 40))
	s.Apply(status(P, "idle"))
	if k := s.StateOf(P).Kind; k != KindComplete {
		t.Errorf("after a new run completed: %v", k)
	}
}
