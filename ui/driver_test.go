package ui

// This file drives the screen in tests through internal/testkit/drive: a
// deterministic stand-in for the Bubble Tea program. newTestModel puts the
// screen's timers on a test clock; do (one message, the old helper) and
// driver (the fluent one) run every command that follows to completion,
// in a fixed order, and fire timers only when the test advances the clock:
//
//	f, c := newFakeOpenCode(t)
//	d := driver(t, actionModel(t, f, c, created("ses_a", "", "a job", 1), busy("ses_a")))
//	d.Press("j", "x").Expect("Abort a job").Press("y").Expect("aborted")
//	d.Advance(flashFor).ExpectNot("aborted")
//
// (see timers_test.go). A test that must hold a command (a server that
// never answers) runs that one by hand on a goroutine (cancel_test.go).

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/testkit/drive"
)

// do sends msg through the test driver (internal/testkit/drive): every command
// that follows (the dialogs' server calls, selections, notices) runs to
// completion and its reply goes back through Update, in a fixed order;
// the timers (notice expiry, result refresh, the tick) wait on the model's
// test clock until a test advances it. It returns the model and the
// messages the commands produced.
func do(t testing.TB, m Model, msg tea.Msg) (Model, []tea.Msg) {
	t.Helper()
	d := driver(t, m).Send(msg)
	return d.Model(), d.Msgs()
}

// driver drives m, a model from newTestModel, on its test clock.
func driver(t testing.TB, m Model) *drive.Driver[Model] {
	t.Helper()
	clk, ok := m.opts.Timer.(*drive.Clock)
	if !ok {
		t.Fatalf("the model's timers are not a test clock: make it with newTestModel")
	}
	return drive.New(t, m, clk)
}

func typeText(t testing.TB, m Model, s string) Model {
	t.Helper()
	for _, k := range keyMsgs(s) {
		m, _ = do(t, m, k)
	}
	return m
}

var (
	ctrlS    = tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
	escKey   = tea.KeyPressMsg{Code: tea.KeyEscape}
	enterKey = tea.KeyPressMsg{Code: tea.KeyEnter}
)

// dialogText is the open dialog alone, without escape codes.
func dialogText(m Model) string {
	if m.dialog == nil {
		return ""
	}
	return ansi.Strip(m.dialog.View(m.width, m.height))
}

func flashes(msgs []tea.Msg) []string {
	var out []string
	for _, m := range msgs {
		if f, ok := m.(FlashMsg); ok {
			out = append(out, f.Text)
		}
	}
	return out
}
