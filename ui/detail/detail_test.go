package detail

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

// busyWithCalls is one busy session with n finished bash calls and one
// running.
func busyWithCalls(n int) *model.State {
	st := model.New()
	st.Apply(wire.SessionCreated{Info: wire.Session{ID: "s", Title: "worker (@general subagent)"}})
	st.Apply(wire.SessionStatusChanged{SessionID: "s", Status: wire.SessionStatus{Type: wire.StatusBusy}})
	for i := 0; i <= n; i++ {
		status, end := wire.ToolCompleted, int64(2000+i*1000)
		if i == n {
			status, end = wire.ToolRunning, 0
		}
		st.Apply(wire.PartUpdated{Part: wire.Part{ID: fmt.Sprintf("p%03d", i), SessionID: "s", MessageID: "m",
			Type: wire.PartTool, Tool: "bash", CallID: fmt.Sprint(i), State: &wire.ToolState{
				Status: status, Title: fmt.Sprintf("step %d", i), Input: json.RawMessage(`{"command":"true"}`),
				Time: wire.ToolTime{Start: int64(1000 + i*1000), End: end}}}})
	}
	return st
}

func view(m Model) []string { return strings.Split(ansi.Strip(m.View()), "\n") }

func TestNewestCallShowsAndScrolls(t *testing.T) {
	m := New(styles.New(true, true))
	m.SetState(busyWithCalls(30))
	m.SetSession("s")
	m.SetSize(60, 12)
	m.SetClock(100_000, "*")
	lines := view(m)
	if len(lines) != 12 {
		t.Fatalf("%d lines, want 12", len(lines))
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, "* bash step 30") {
		t.Fatalf("the running call is not at the bottom: %q", last)
	}
	key := func(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }
	m, _ = m.Update(key('k'))
	if last := view(m)[11]; !strings.Contains(last, "step 29") {
		t.Fatalf("k did not scroll up one call: %q", last)
	}
	m, _ = m.Update(key('g'))
	if first := view(m)[5]; !strings.Contains(first, "step 0") { // under 4 header lines and the rule
		t.Fatalf("g did not show the first call under the header: %q", first)
	}
	m.ScrollBy(1000) // the wheel cannot scroll past the end
	if last := view(m)[11]; !strings.Contains(last, "step 30") {
		t.Fatalf("scrolling down past the end: %q", last)
	}
	m, _ = m.Update(key('k'))
	m.SetSession("s") // the same session keeps its scroll
	if last := view(m)[11]; !strings.Contains(last, "step 29") {
		t.Fatalf("re-selecting the session lost the scroll: %q", last)
	}
	for _, l := range strings.Split(m.View(), "\n") {
		if w := ansi.StringWidth(l); w != 60 {
			t.Fatalf("a line is %d cells wide, want 60: %q", w, ansi.Strip(l))
		}
	}
}

// The todo list shows under the calls with its count and a mark per state;
// a session with none shows no section.
func TestTodoList(t *testing.T) {
	st := busyWithCalls(2)
	m := New(styles.New(true, true))
	m.SetState(st)
	m.SetSession("s")
	m.SetSize(60, 16)
	if v := strings.Join(view(m), "\n"); strings.Contains(v, "todos") {
		t.Fatalf("a session with no todo list shows one:\n%s", v)
	}
	st.Apply(wire.TodoUpdated{SessionID: "s", Todos: []wire.Todo{
		{Content: "read the code", Status: wire.TodoCompleted}, {Content: "fix the parser", Status: wire.TodoInProgress},
		{Content: "run the tests", Status: wire.TodoPending}, {Content: "ask the user", Status: wire.TodoCancelled}}})
	v := view(m)
	want := []string{"── todos 1/4 done", "✓ read the code", "▸ fix the parser", "○ run the tests", "– ask the user"}
	at := 0
	for at < len(v) && !strings.HasPrefix(v[at], "── todos") {
		at++
	}
	if at+len(want) > len(v) || at < 6 {
		t.Fatalf("no todo section under the calls:\n%s", strings.Join(v, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(v[at+i], w) {
			t.Errorf("line %d = %q, want it to start %q\n%s", at+i, v[at+i], w, strings.Join(v, "\n"))
		}
	}
	if !strings.Contains(strings.Join(v, "\n"), "bash step 2") {
		t.Errorf("the running call went out of sight:\n%s", strings.Join(v, "\n"))
	}
}

// "tool calls (4)" over three lines must say what the pane leaves out
// (80x24 used to list three of four with no word of the fourth).
func TestCallsRuleCountsHiddenCalls(t *testing.T) {
	m := New(styles.New(true, true))
	m.SetState(busyWithCalls(3)) // four calls
	m.SetSession("s")
	m.SetClock(100_000, "*")
	for h := 6; h <= 12; h++ {
		m.SetSize(80, h)
		lines := view(m)
		shown := 0
		for _, l := range lines {
			if strings.Contains(l, "bash step") {
				shown++
			}
		}
		all := strings.Join(lines, "\n")
		if !strings.Contains(all, "tool calls (4)") {
			t.Fatalf("height %d: no count in\n%s", h, all)
		}
		if shown < 4 && !strings.Contains(all, fmt.Sprintf("↑%d more", 4-shown)) {
			t.Errorf("height %d: %d of 4 calls shown and the rule does not say ↑%d more:\n%s", h, shown, 4-shown, all)
		}
	}
}

// A session idle while its background task runs says what it waits on;
// its task call runs with the child, marked background, and its time
// counts on.
func TestBackgroundDetail(t *testing.T) {
	st := model.New()
	st.Apply(wire.SessionCreated{Info: wire.Session{ID: "p", Title: "root"}})
	st.Apply(wire.MessageUpdated{Info: wire.Message{ID: "m1", SessionID: "p", Role: "user", Time: wire.MessageTime{Created: 1000}}})
	st.Apply(wire.MessageUpdated{Info: wire.Message{ID: "m2", SessionID: "p", Role: "assistant", Time: wire.MessageTime{Created: 1100, Completed: 2000}}})
	st.Apply(wire.PartUpdated{Part: wire.Part{ID: "t", SessionID: "p", MessageID: "m2", Type: wire.PartTool, Tool: "task",
		State: &wire.ToolState{Status: wire.ToolCompleted, Title: "worker 1", Metadata: json.RawMessage(`{"sessionId":"ses_k","background":true}`),
			Time: wire.ToolTime{Start: 1200, End: 1300}}}})
	st.Apply(wire.SessionStatusChanged{SessionID: "p", Status: wire.SessionStatus{Type: wire.StatusIdle}})
	st.Apply(wire.SessionCreated{Info: wire.Session{ID: "ses_k", ParentID: "p", Title: "worker 1 (@general subagent)"}})
	st.Apply(wire.SessionStatusChanged{SessionID: "ses_k", Status: wire.SessionStatus{Type: wire.StatusBusy}})
	m := New(styles.New(true, true))
	m.SetState(st)
	m.SetSession("p")
	m.SetSize(70, 12)
	m.SetClock(61_000, "*")
	out := strings.Join(view(m), "\n")
	for _, want := range []string{"◔ waiting on 1 background task · 1m00s", "* task worker 1 (background)", "59s"} {
		if !strings.Contains(out, want) {
			t.Errorf("detail lacks %q:\n%s", want, out)
		}
	}
}

// A parent whose three children all wait on a permission has none
// running below: they wait, and the status line says so.
func TestChildrenWaitingAreNotRunning(t *testing.T) {
	st := model.New()
	st.Apply(wire.SessionCreated{Info: wire.Session{ID: "p", Title: "fan"}})
	st.Apply(wire.SessionStatusChanged{SessionID: "p", Status: wire.SessionStatus{Type: wire.StatusBusy}})
	for _, id := range []string{"a", "b", "c"} {
		st.Apply(wire.SessionCreated{Info: wire.Session{ID: id, ParentID: "p", Title: "worker " + id}})
		st.Apply(wire.SessionStatusChanged{SessionID: id, Status: wire.SessionStatus{Type: wire.StatusBusy}})
		st.Apply(wire.PermissionAsked{Request: wire.PermissionRequest{ID: "per_" + id, SessionID: id, Permission: "bash"}})
	}
	m := New(styles.New(true, true))
	m.SetState(st)
	m.SetSession("p")
	m.SetSize(80, 12)
	if got := strings.Join(view(m), "\n"); !strings.Contains(got, "3 children, 3 waiting below") || strings.Contains(got, "running below") {
		t.Errorf("the status line does not say the children wait:\n%s", got)
	}
}

// A retry's detail names the session it retries, with how that one ended.
func TestRetryDetail(t *testing.T) {
	st := model.New()
	st.Apply(wire.SessionCreated{Info: wire.Session{ID: "p", Title: "fan"}})
	st.Apply(wire.SessionCreated{Info: wire.Session{ID: "ses_a", ParentID: "p", Title: "dig (@general subagent)"}})
	st.Apply(wire.MessageUpdated{Info: wire.Message{ID: "m1", SessionID: "ses_a", Role: "assistant",
		Time: wire.MessageTime{Created: 1, Completed: 2}, Error: &wire.ErrorInfo{Name: "APIError"}}})
	st.Apply(wire.SessionStatusChanged{SessionID: "ses_a", Status: wire.SessionStatus{Type: wire.StatusIdle}})
	st.Apply(wire.SessionCreated{Info: wire.Session{ID: "ses_b", ParentID: "p", Title: "dig" + model.RetryMark("ses_a") + " (@general subagent)"}})
	m := New(styles.New(true, true))
	m.SetState(st)
	m.SetSession("ses_b")
	m.SetSize(70, 12)
	if out := strings.Join(view(m), "\n"); !strings.Contains(out, "retries ses_a ✗") {
		t.Errorf("detail lacks the retried session:\n%s", out)
	}
}

// TestCostWords: the tokens line says a session's cost as every surface
// does: n/a when nothing is priced, a lower bound when some replies are
// unpriced, the sum when all are priced; never a made-up $0.
func TestCostWords(t *testing.T) {
	reply := func(id string, tokens, cost float64) wire.Event {
		return wire.MessageUpdated{Info: wire.Message{ID: id, SessionID: "s", Role: "assistant", Cost: cost,
			Tokens: wire.Tokens{Input: tokens}, Time: wire.MessageTime{Created: 1, Completed: 2}}}
	}
	for _, tc := range []struct {
		replies []wire.Event
		want    string
	}{
		{[]wire.Event{reply("m1", 315, 0)}, "tokens  315 · n/a"},
		{[]wire.Event{reply("m1", 300, 0.0123), reply("m2", 15, 0)}, "tokens  315 · ≥$0.0123"},
		{[]wire.Event{reply("m1", 300, 0.0123), reply("m2", 15, 0.0002)}, "tokens  315 · $0.0125"},
	} {
		st := model.New()
		st.Apply(wire.SessionCreated{Info: wire.Session{ID: "s", Title: "worker"}})
		for _, ev := range tc.replies {
			st.Apply(ev)
		}
		m := New(styles.New(true, true))
		m.SetState(st)
		m.SetSession("s")
		m.SetSize(60, 12)
		if got := strings.Join(view(m), "\n"); !strings.Contains(got, tc.want) {
			t.Errorf("detail lacks %q:\n%s", tc.want, got)
		}
	}
}
