package detail

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

// TestCutCallIsMarkedAborted: the bash call an abort killed, which 1.18
// stores completed (exit null, "User aborted the command"), is drawn ■
// aborted, never ✓; a call left running by the stopped session is ⊘.
func TestCutCallIsMarkedAborted(t *testing.T) {
	st := model.New()
	st.Apply(wire.SessionCreated{Info: wire.Session{ID: "s", Title: "worker (@general subagent)"}})
	st.Apply(wire.SessionStatusChanged{SessionID: "s", Status: wire.SessionStatus{Type: wire.StatusBusy}})
	call := func(id, status, cmd, output, md string) {
		st.Apply(wire.PartUpdated{Part: wire.Part{ID: id, SessionID: "s", MessageID: "m", Type: wire.PartTool, Tool: "bash",
			State: &wire.ToolState{Status: status, Title: cmd, Input: json.RawMessage(`{"command":"x"}`), Output: output,
				Metadata: json.RawMessage(md), Time: wire.ToolTime{Start: 1000, End: 2000}}}})
	}
	call("p1", wire.ToolCompleted, "sleep 3.0; echo step3", "(no output)\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>",
		`{"exit":null}`)
	call("p2", wire.ToolRunning, "sleep 9", "", `{}`)
	st.Apply(wire.SessionStatusChanged{SessionID: "s", Status: wire.SessionStatus{Type: wire.StatusIdle}})
	m := New(styles.New(true, true))
	m.SetState(st)
	m.SetSession("s")
	m.SetSize(70, 12)
	m.SetClock(100_000, "*")
	out := strings.Join(view(m), "\n")
	for _, want := range []string{"■ bash sleep 3.0; echo step3 — aborted", "⊘ bash sleep 9 — interrupted"} {
		if !strings.Contains(out, want) {
			t.Errorf("the pane lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "✓ bash") {
		t.Errorf("a cut call is drawn ✓:\n%s", out)
	}
}
