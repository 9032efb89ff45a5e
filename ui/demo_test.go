package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/record"
)

// demoModel is the screen as --demo (or --replay, by label) runs it: Demo
// mode, operations over what the recording has shown (here: evs, seen by
// the record as the player would send them), no snapshot reader.
func demoModel(t *testing.T, label string, evs EventsMsg) Model {
	t.Helper()
	seen := record.NewRecorded()
	for _, env := range evs {
		seen.Observe(env)
	}
	m := newTestModel(t, 120, 40, func(o *Options) {
		o.Demo, o.ReadOnly = true, label+": read-only"
		o.Server = record.ReadOnly(nil, seen, label)
	})
	return send(t, m, evs)
}

// TestDemoReadOnlyKeysWork: every key that only reads works on the
// recorded data, and none answers "read-only".
func TestDemoReadOnlyKeysWork(t *testing.T) {
	cases := []struct {
		keys []string
		want func(m Model, msgs []tea.Msg) bool
	}{
		{[]string{"G", "o"}, func(m Model, _ []tea.Msg) bool {
			return strings.Contains(dialogText(m), "Found 14 TODO comments")
		}},
		{[]string{"G", "t"}, func(m Model, _ []tea.Msg) bool {
			return strings.Contains(dialogText(m), "Found 14 TODO comments")
		}},
		{[]string{"G", "d"}, func(m Model, _ []tea.Msg) bool { return m.dialog != nil }},
		{[]string{"T"}, func(m Model, _ []tea.Msg) bool {
			return strings.Contains(dialogText(m), "count TODO comments")
		}},
		{[]string{"i"}, func(m Model, _ []tea.Msg) bool { return strings.Contains(dialogText(m), "Inbox") }},
		{[]string{"G", "y"}, func(_ Model, msgs []tea.Msg) bool {
			return strings.Contains(strings.Join(flashes(msgs), "\n"), "copied task_id ses_c4")
		}},
		{[]string{"s"}, func(m Model, _ []tea.Msg) bool { return strings.Contains(screen(m), "sort: ") }},
		{[]string{"f"}, func(m Model, _ []tea.Msg) bool { return strings.Contains(screen(m), "[follow]") }},
		{[]string{"/", "docs", "enter"}, func(m Model, _ []tea.Msg) bool { return m.tree.Filter() == "docs" }},
		{[]string{"enter"}, func(m Model, _ []tea.Msg) bool { return len(m.tree.Rows()) == 1 }}, // folds the root
		{[]string{"j"}, func(m Model, _ []tea.Msg) bool { return m.Selected() == "ses_c1" }},
		{[]string{"tab"}, func(m Model, _ []tea.Msg) bool { return m.focus == paneDetail }},
		{[]string{"?"}, func(m Model, _ []tea.Msg) bool { return m.help.ShowAll }},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.keys, " "), func(t *testing.T) {
			m := demoModel(t, "demo", fanOut())
			var msgs []tea.Msg
			for _, k := range c.keys {
				for _, msg := range keyMsgs(k) {
					var seen []tea.Msg
					m, seen = do(t, m, msg)
					msgs = append(msgs, seen...)
				}
			}
			out := screen(m) + strings.Join(flashes(msgs), "\n")
			if strings.Contains(out, "read-only") || strings.Contains(out, "not available") {
				t.Fatalf("%v answered as if it changed something:\n%s", c.keys, out)
			}
			if !c.want(m, msgs) {
				t.Fatalf("%v did not work on the recording:\n%s", c.keys, screen(m))
			}
		})
	}
}

// TestDemoMutatingKeysSayReadOnly: every key that would change something
// answers "<label>: read-only" at once and opens nothing; so does an
// answer given in the inbox.
func TestDemoMutatingKeysSayReadOnly(t *testing.T) {
	for _, label := range []string{"demo", "replay"} {
		for _, k := range []string{"n", "N", "r", "R", "m", "a", "x", "X"} {
			m := demoModel(t, label, fanOut())
			m = press(t, m, k)
			if m.dialog != nil {
				t.Errorf("%s: %s opened a dialog:\n%s", label, k, dialogText(m))
			}
			if got := m.flashMsg.Text; got != label+": read-only" {
				t.Errorf("%s: %s said %q, want %q", label, k, got, label+": read-only")
			}
		}
		// The inbox opens (it only reads); allowing from it is refused.
		m := demoModel(t, label, troubled())
		m = press(t, m, "i")
		if !strings.Contains(dialogText(m), "rm -rf build") {
			t.Fatalf("%s: the inbox does not show the recorded permission:\n%s", label, dialogText(m))
		}
		m, msgs := do(t, m, keyMsgs("a")[0])
		if out := dialogText(m) + strings.Join(flashes(msgs), "\n"); !strings.Contains(out, label+": read-only") {
			t.Errorf("%s: allowing in the inbox did not say %q:\n%s", label, label+": read-only", out)
		}
	}
}
