package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	itranscript "github.com/octop-dev/octop/internal/transcript"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/styles"
)

// A prompt sent mid-step shows, where it sits, that the model has yet to
// see it, while the session runs; stopped, the note goes, and a reply
// after it (the model saw it) takes it away too.
func TestQueuedPromptNote(t *testing.T) {
	msgs := []wire.MessageWithParts{
		{Info: wire.Message{ID: "m1", SessionID: "ses_p", Role: "user", Time: wire.MessageTime{Created: 10}},
			Parts: []wire.Part{{ID: "p1", Type: wire.PartText, Text: "go"}}},
		{Info: wire.Message{ID: "m2", SessionID: "ses_p", Role: "assistant", Time: wire.MessageTime{Created: 20}},
			Parts: []wire.Part{toolPart("p2", "bash", wire.ToolRunning, `{"command":"sleep 9"}`, "")}},
		{Info: wire.Message{ID: "m3", SessionID: "ses_p", Role: "user", Time: wire.MessageTime{Created: 30}},
			Parts: []wire.Part{{ID: "p3", Type: wire.PartText, Text: "only the parser"}}},
	}
	m := New("ses_p", "steered", styles.New(true, true), nil)
	m.SetSize(70, 20)
	m.SetRunning(true)
	m, _ = m.Update(Loaded{ID: "ses_p", Msgs: msgs})
	note := "(" + itranscript.QueuedNote + ")"
	out := ansi.Strip(m.View())
	if i, j := strings.Index(out, "» only the parser"), strings.Index(out, note); i < 0 || j < i || strings.Index(out, "sleep 9") > i {
		t.Errorf("running: want the prompt after the call, the note under it:\n%s", out)
	}
	m.SetRunning(false)
	if out := ansi.Strip(m.View()); strings.Contains(out, "queued") {
		t.Errorf("stopped: the note stays:\n%s", out)
	}
	m.SetRunning(true)
	m.ApplyEvents([]wire.Event{wire.MessageUpdated{Info: wire.Message{ID: "m4", SessionID: "ses_p", Role: "assistant", Time: wire.MessageTime{Created: 40}}}})
	if out := ansi.Strip(m.View()); strings.Contains(out, "queued") {
		t.Errorf("seen: the note stays:\n%s", out)
	}
}
