package transcript

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/testkit/colourtest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/markdown"
	"github.com/octop-dev/octop/ui/styles"
)

func toolPart(id, name, status, input, output string) wire.Part {
	return wire.Part{ID: id, SessionID: "ses_p", Type: wire.PartTool, Tool: name, State: &wire.ToolState{
		Status: status, Input: json.RawMessage(input), Output: output}}
}

// fixture: a parent that reasons, runs bash (long output), fails a read,
// starts a child, answers in markdown and is then aborted.
func fixture() []wire.MessageWithParts {
	failed := toolPart("p5", "read", wire.ToolError, `{"filePath":"/repo/missing.txt"}`, "")
	failed.State.Error = "File not found: /repo/missing.txt"
	task := toolPart("p6", "task", wire.ToolCompleted, `{"description":"find callers","prompt":"go","subagent_type":"general"}`,
		"<task id=\"ses_child\" state=\"completed\">\n<task_result>\n3 callers\n</task_result>\n</task>")
	var out strings.Builder
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&out, "ok  \tgithub.com/x/pkg%d\t0.0%ds\n", i, i)
	}
	return []wire.MessageWithParts{
		{Info: wire.Message{ID: "m1", SessionID: "ses_p", Role: "user"}, Parts: []wire.Part{
			{ID: "p1", Type: wire.PartText, Text: "Find the callers of Parse and fix them."}}},
		{Info: wire.Message{ID: "m2", SessionID: "ses_p", Role: "assistant", Time: wire.MessageTime{Completed: 9}}, Parts: []wire.Part{
			{ID: "p2", Type: wire.PartReasoning, Text: "The callers are in cmd/ and actions/.\nI should grep first, then run the tests."},
			toolPart("p3", "bash", wire.ToolCompleted, `{"command":"go test ./..."}`, out.String()),
			failed, task,
			{ID: "p7", Type: wire.PartText, Text: "## Done\n\n- fixed **3** callers\n- tests pass"},
		}},
		{Info: wire.Message{ID: "m3", SessionID: "ses_p", Role: "assistant",
			Error: &wire.ErrorInfo{Name: "MessageAbortedError", Data: wire.ErrorInfoData{Message: "Aborted"}}}},
	}
}

func open(w, h int, noColor bool) Model {
	m := New("ses_p", "refactor Parse", styles.New(true, noColor), markdown.New(true, noColor).Render)
	m.SetSize(w, h)
	m, _ = m.Update(Loaded{ID: "ses_p", Msgs: fixture()})
	return m
}

func press(m Model, keys ...string) (Model, []tea.Msg) {
	var intents []tea.Msg
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		default:
			msg = tea.KeyPressMsg{Code: rune(k[0]), Text: k}
		}
		var cmd tea.Cmd
		m, cmd = m.Update(msg)
		if cmd != nil {
			if out := cmd(); out != nil {
				intents = append(intents, out)
			}
		}
	}
	return m, intents
}

func TestTranscriptGolden(t *testing.T) {
	for _, w := range []int{80, 200} {
		for _, noColor := range []bool{false, true} {
			name := fmt.Sprintf("w%d/%s", w, map[bool]string{false: "color", true: "nocolor"}[noColor])
			t.Run(name, func(t *testing.T) {
				m := open(w, 30, noColor)
				m, _ = press(m, "g", "j", "j") // the cursor on the bash call
				out := m.View()
				if e := colourtest.Escape(out); noColor && e != "" {
					t.Fatalf("NO_COLOR output has a colour escape:\n%q", out)
				}
				for i, l := range strings.Split(out, "\n") {
					if ansi.StringWidth(l) > w {
						t.Errorf("line %d is %d cells wide, over %d: %q", i, ansi.StringWidth(l), w, l)
					}
				}
				golden.RequireEqual(t, []byte(out))
			})
		}
	}
}

func TestTranscriptKeys(t *testing.T) {
	m := open(80, 30, true)
	view := ansi.Strip(m.View())
	for _, want := range []string{"» Find the callers", "~ The callers are in cmd/ and actions/. (+1 line, enter)",
		"⟩ bash: go test ./...", "… 5 more lines (enter)", "⟩ read: /repo/missing.txt  (failed)",
		"✗ File not found", "⟩ task: find callers → ses_child  (enter opens it)", "✗ MessageAbortedError: Aborted"} {
		if !strings.Contains(view, want) {
			t.Errorf("transcript lacks %q:\n%s", want, view)
		}
	}
	// enter on the bash call shows its whole output; on the task call it
	// asks to open the child; esc asks to close.
	m, _ = press(m, "g", "j", "j", "enter")
	if v := ansi.Strip(m.View()); !strings.Contains(v, "pkg9") || strings.Contains(v, "5 more lines") {
		t.Errorf("expanded output:\n%s", v)
	}
	m, intents := press(m, "j", "j", "enter", "esc")
	if len(intents) != 2 || intents[0] != (OpenChild{ID: "ses_child"}) || intents[1] != (Close{}) {
		t.Errorf("intents %#v, want OpenChild{ses_child} then Close", intents)
	}
	// Search finds the read call; n wraps around to it again.
	m, _ = press(m, "/", "m", "i", "s", "s", "enter")
	if m.cursor != 3 {
		t.Errorf("search for 'miss': cursor on entry %d, want 3", m.cursor)
	}
	m, _ = press(m, "n")
	if m.cursor != 3 {
		t.Errorf("n with one match: cursor on %d", m.cursor)
	}
}

// The tail: new parts show at the bottom while following; moving up stops
// it (new parts do not move the view); G resumes.
func TestTranscriptTail(t *testing.T) {
	m := open(80, 12, true)
	m.SetRunning(true)
	add := func(id, text string) {
		m.ApplyEvents([]wire.Event{wire.PartUpdated{Part: wire.Part{ID: id, SessionID: "ses_p", MessageID: "m4", Type: wire.PartText, Text: text}}})
	}
	add("q1", "first streamed line")
	if v := ansi.Strip(m.View()); !strings.Contains(v, "first streamed line") || !strings.Contains(v, "● live") {
		t.Fatalf("tailing view lacks the new part:\n%s", v)
	}
	m, _ = press(m, "k", "k", "k")
	add("q2", "second streamed line")
	if v := ansi.Strip(m.View()); strings.Contains(v, "second streamed line") || !strings.Contains(v, "paused") {
		t.Errorf("scrolled up, yet the view followed:\n%s", v)
	}
	m, _ = press(m, "G")
	if v := ansi.Strip(m.View()); !strings.Contains(v, "second streamed line") {
		t.Errorf("G did not resume the tail:\n%s", v)
	}
}

// The room reads the newest messages first and shows them, then reads the
// whole session; the view stays at the tail.
func TestRoomLoadsTheEndFirst(t *testing.T) {
	d, cmd := Open(styles.New(true, true), "ses_p", "refactor Parse", nil)
	if req := cmd(); req != (task.MessagesRequest{ID: "ses_p", Limit: FirstPage}) {
		t.Fatalf("first request %#v, want the newest %d messages", req, FirstPage)
	}
	all := fixture()
	d, cmd = d.Update(task.MessagesReply{ID: "ses_p", Msgs: all[2:], Partial: true})
	if v := ansi.Strip(d.View(80, 12)); !strings.Contains(v, "MessageAbortedError") || strings.Contains(v, "Find the callers") {
		t.Fatalf("after the first page:\n%s", v)
	}
	if cmd == nil || cmd() != (task.MessagesRequest{ID: "ses_p"}) {
		t.Fatal("a partial first page did not ask for the whole session")
	}
	d, cmd = d.Update(task.MessagesReply{ID: "ses_p", Msgs: all})
	if cmd != nil {
		t.Error("the whole session asked for more")
	}
	v := ansi.Strip(d.View(80, 40))
	if !strings.Contains(v, "» Find the callers") || !strings.Contains(v, "MessageAbortedError") {
		t.Errorf("after the whole session:\n%s", v)
	}
}

// A reload while scrolled up keeps the entry the cursor was on, though
// older entries came in above it.
func TestReloadKeepsThePlace(t *testing.T) {
	m := open(80, 12, true)
	all := fixture()
	m, _ = m.Update(Loaded{ID: "ses_p", Msgs: all[1:]})
	m, _ = press(m, "k") // the task call, the tail stopped
	at := m.entries[m.cursor].PartID
	m, _ = m.Update(Loaded{ID: "ses_p", Msgs: all})
	if got := m.entries[m.cursor].PartID; got != at || m.follow {
		t.Errorf("after the reload the cursor is on %q (follow %v), want %q", got, m.follow, at)
	}
}

// A background task's end notice is drawn as the server's word about the
// child, not as a prompt, and enter on it opens the child.
func TestTranscriptBackgroundNotice(t *testing.T) {
	msgs := []wire.MessageWithParts{
		{Info: wire.Message{ID: "m1", SessionID: "ses_p", Role: "user"}, Parts: []wire.Part{
			{ID: "p1", Type: wire.PartText, Text: "Fan out."}}},
		{Info: wire.Message{ID: "m2", SessionID: "ses_p", Role: "user"}, Parts: []wire.Part{
			{ID: "p2", Type: wire.PartText, Synthetic: true, Text: "<task id=\"ses_kid\" state=\"completed\">\n" +
				"<summary>Background task completed: worker 2</summary>\n<task_result>\nall good\n</task_result>\n</task>"}}},
	}
	m := New("ses_p", "fan out", styles.New(true, true), nil)
	m.SetSize(80, 12)
	m, _ = m.Update(Loaded{ID: "ses_p", Msgs: msgs})
	out := m.View()
	if !strings.Contains(out, "◂ background task completed: worker 2 → ses_kid  (enter opens it)") ||
		!strings.Contains(out, "    all good") || strings.Contains(out, "» <task") {
		t.Fatalf("view:\n%s", out)
	}
	m, intents := press(m, "G", "enter")
	if len(intents) != 1 || intents[0] != (OpenChild{ID: "ses_kid"}) {
		t.Errorf("enter on the notice sent %v, want OpenChild ses_kid", intents)
	}
}
