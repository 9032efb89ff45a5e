package diff

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/octop-dev/octop/internal/testkit/colourtest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/styles"
)

// fixture: a 1.18-style patch and a 1.1-style before/after.
func fixture() []wire.MessageWithParts {
	return []wire.MessageWithParts{
		{Info: wire.Message{ID: "m1", Role: "user", Summary: &wire.MessageSummary{Diffs: []wire.FileDiff{{
			File: "parse.go", Additions: 2, Deletions: 1, Status: "modified",
			Patch: "Index: parse.go\n===================================================================\n--- parse.go\n+++ parse.go\n@@ -1,3 +1,4 @@\n package parse\n-func Parse() {}\n+// Parse reads it.\n+func Parse() error { return nil }\n",
		}}}}},
		{Info: wire.Message{ID: "m3", Role: "user", Summary: &wire.MessageSummary{Diffs: []wire.FileDiff{{
			File: "notes.txt", Before: "", After: "one\ntwo\n", Additions: 2, Status: "added",
		}}}}},
	}
}

func open(w, h int, noColor bool) Model {
	m := New("ses_p", "refactor Parse", styles.New(true, noColor))
	m.SetSize(w, h)
	m, _ = m.Update(Loaded{ID: "ses_p", Msgs: fixture()})
	return m
}

func TestDiffGolden(t *testing.T) {
	for _, w := range []int{80, 200} {
		for _, noColor := range []bool{false, true} {
			t.Run(fmt.Sprintf("w%d/%s", w, map[bool]string{false: "color", true: "nocolor"}[noColor]), func(t *testing.T) {
				out := open(w, 16, noColor).View()
				if e := colourtest.Escape(out); noColor && e != "" {
					t.Fatalf("NO_COLOR output has a colour escape:\n%q", out)
				}
				golden.RequireEqual(t, []byte(out))
			})
		}
	}
}

func TestDiffKeysAndRefresh(t *testing.T) {
	m := open(80, 16, true)
	v := ansi.Strip(m.View())
	for _, want := range []string{"2 files  +4 −1", "▌ +2    −0     notes.txt", "+++ b/notes.txt", "+two"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if v := ansi.Strip(m.View()); !strings.Contains(v, "▌ +2    −1     parse.go") || !strings.Contains(v, "+func Parse() error { return nil }") {
		t.Errorf("tab did not show the next file's diff:\n%s", v)
	}
	if _, cmd := m.Update(tick{"ses_p"}); cmd == nil {
		t.Error("the tick stopped")
	}
	m.SetRunning(true)
	_, cmd := m.Update(tick{"ses_p"})
	msgs := cmd().(tea.BatchMsg)
	if got := msgs[0](); got != (Reload{ID: "ses_p"}) {
		t.Errorf("a tick while running gave %#v, want Reload", got)
	}
	_, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if cmd == nil || cmd() != (Close{}) {
		t.Error("esc did not ask to close")
	}
	empty := New("ses_q", "q", styles.New(true, true))
	empty.SetSize(40, 4)
	empty, _ = empty.Update(Loaded{ID: "ses_q"})
	if !strings.Contains(empty.View(), "no files changed") {
		t.Errorf("empty: %q", empty.View())
	}
}
