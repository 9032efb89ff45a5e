package tree

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

func root(id, dir string, created int64) wire.Event {
	return wire.SessionCreated{Info: wire.Session{ID: id, Title: "task " + id, Directory: dir,
		Time: wire.SessionTime{Created: created, Updated: created}}}
}

func child(id, parent string, created int64) wire.Event {
	return wire.SessionCreated{Info: wire.Session{ID: id, ParentID: parent, Title: "sub " + id + " (@general subagent)",
		Time: wire.SessionTime{Created: created, Updated: created}}}
}

func TestGroupByDirectory(t *testing.T) {
	st := model.New()
	for _, e := range []wire.Event{
		root("a1", "/src/alpha", 1), root("b1", "/src/beta", 2), child("b1c", "b1", 3),
		root("a2", "/src/alpha", 4),
	} {
		st.Apply(e)
	}
	m := New(styles.New(true, true))
	m.SetSize(60, 10)
	m.SetState(st)
	var ids []string
	for _, r := range m.Rows() {
		ids = append(ids, r.ID)
	}
	if got := strings.Join(ids, " "); got != "a2 b1 b1c a1" {
		t.Fatalf("ungrouped rows %q, want newest root first", got)
	}
	m.SetGroupByDirectory(true)
	ids = ids[:0]
	for _, r := range m.Rows() {
		ids = append(ids, r.ID)
	}
	// alpha's newest root is the newest of all, so alpha comes first, with
	// both its roots; beta's root keeps its child.
	if got := strings.Join(ids, " "); got != "a2 a1 b1 b1c" {
		t.Fatalf("grouped rows %q, want a2 a1 b1 b1c", got)
	}
	if out := ansi.Strip(m.View()); !strings.Contains(out, "[alpha]") || !strings.Contains(out, "[beta]") {
		t.Fatalf("roots do not name their project:\n%s", out)
	}
}

// Every row is exactly the pane's width, whatever the title, at any width.
func TestRowsFitTheWidth(t *testing.T) {
	st := model.New()
	st.Apply(root("r", "", 1))
	st.Apply(child("c1", "r", 2))
	st.Apply(wire.SessionCreated{Info: wire.Session{ID: "c2", ParentID: "r",
		Title: strings.Repeat("a very long description that goes on ", 8) + "(@explore subagent)"}})
	st.Apply(wire.SessionCreated{Info: wire.Session{ID: "c3", ParentID: "r", Title: "世界 wide runes 世界 (@general subagent)"}})
	for _, w := range []int{8, 20, 43, 80, 200} {
		m := New(styles.New(true, false))
		m.SetSize(w, 6)
		m.SetState(st)
		for i, l := range strings.Split(m.View(), "\n") {
			if got := ansi.StringWidth(l); got != w {
				t.Errorf("width %d: line %d is %d cells: %q", w, i, got, ansi.Strip(l))
			}
		}
	}
}

// Sync keeps the rows while only tool calls and status change, and rebuilds
// them as soon as the tree's shape does: a late child, a placeholder
// parent made real, a deleted session.
func TestSyncRebuildsOnShapeOnly(t *testing.T) {
	st := model.New()
	st.Apply(root("r", "/p", 1))
	m := New(styles.New(true, true))
	m.SetSize(60, 10)
	m.SetState(st)
	rowsID := func() string {
		var ids []string
		for _, r := range m.Rows() {
			ids = append(ids, r.ID)
		}
		return strings.Join(ids, " ")
	}
	before := &m.Rows()[0]
	st.Apply(wire.SessionStatusChanged{SessionID: "r", Status: wire.SessionStatus{Type: wire.StatusBusy}})
	st.Apply(wire.PartUpdated{Part: wire.Part{ID: "prt_1", SessionID: "r", MessageID: "msg_1", Type: wire.PartTool, Tool: "bash",
		State: &wire.ToolState{Status: wire.ToolRunning}}})
	m.Sync()
	if &m.Rows()[0] != before {
		t.Error("rows were rebuilt for a tool update")
	}
	// A grandchild whose parent is not known yet, then the parent.
	st.Apply(child("g", "c", 3))
	m.Sync()
	st.Apply(child("c", "r", 2))
	m.Sync()
	if got := rowsID(); got != "r c g" {
		t.Fatalf("after late parent: rows %q, want r c g", got)
	}
	st.Apply(wire.SessionDeleted{Info: wire.Session{ID: "g", ParentID: "c"}})
	m.Sync()
	if got := rowsID(); got != "r c" {
		t.Fatalf("after delete: rows %q, want r c", got)
	}
	// A new state (the demo's reset) is always rebuilt.
	m.SetState(model.New())
	m.Sync()
	if got := rowsID(); got != "" {
		t.Fatalf("after reset: rows %q, want none", got)
	}
}

// TestRowElapsedIsItsRuns: a session resumed after an idle hour shows the
// time its two runs took, not the last run alone nor the hour between.
func TestRowElapsedIsItsRuns(t *testing.T) {
	st := model.New()
	msg := func(id, role string, created, done int64) wire.Event {
		return wire.MessageUpdated{Info: wire.Message{ID: id, SessionID: "r", Role: role,
			Time: wire.MessageTime{Created: created, Completed: done}}}
	}
	for _, e := range []wire.Event{
		root("r", "", 1000), msg("m1", "user", 1000, 0), msg("m2", "assistant", 1100, 41_000),
		msg("m3", "user", 3_600_000, 0), msg("m4", "assistant", 3_600_100, 3_625_000),
		wire.SessionStatusChanged{SessionID: "r", Status: wire.SessionStatus{Type: wire.StatusIdle}},
	} {
		st.Apply(e)
	}
	m := New(styles.New(true, true))
	m.SetSize(60, 3)
	m.SetState(st)
	m.SetClock(9_000_000, "*")
	if line := strings.Split(ansi.Strip(m.View()), "\n")[0]; !strings.HasSuffix(strings.TrimSpace(line), " 1m05s") {
		t.Errorf("row %q: want the runs' 1m05s at its end", line)
	}
}
