package dialog

import (
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/testkit/colourtest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

// The screen every dialog is drawn for in its goldens.
const screenW, screenH = 100, 40

var agents = task.AgentsReply{Agents: []wire.Agent{
	{Name: "build", Mode: "primary", Description: "The default agent."},
	{Name: "explore", Mode: "subagent", Description: "Fast agent specialized for exploring codebases."},
	{Name: "general", Mode: "subagent", Description: "General-purpose agent for multi-step tasks."},
}}

// tree is a root with two running children, one of them with a running
// child of its own.
func tree() *model.State {
	st := model.New()
	for _, s := range []wire.Session{
		{ID: "ses_root", Title: "refactor the parser", Time: wire.SessionTime{Created: 1, Updated: 1}},
		{ID: "ses_a", ParentID: "ses_root", Title: "lint the parser package (@general subagent)", Time: wire.SessionTime{Created: 2, Updated: 2}},
		{ID: "ses_b", ParentID: "ses_root", Title: "run the unit tests (@general subagent)", Time: wire.SessionTime{Created: 3, Updated: 3}},
		{ID: "ses_b1", ParentID: "ses_b", Title: "read the failing test (@explore subagent)", Time: wire.SessionTime{Created: 4, Updated: 4}},
	} {
		st.Apply(wire.SessionCreated{Info: s})
		st.Apply(wire.SessionStatusChanged{SessionID: s.ID, Status: wire.SessionStatus{Type: wire.StatusBusy}})
	}
	return st
}

// step feeds msgs to d in order, keeping the dialog each returns.
func step(t *testing.T, d room.Dialog, msgs ...tea.Msg) room.Dialog {
	t.Helper()
	for _, msg := range msgs {
		d, _ = d.Update(msg)
		if d == nil {
			t.Fatalf("%T closed the dialog", msg)
		}
	}
	return d
}

func keys(s string) []tea.Msg {
	var out []tea.Msg
	for _, r := range s {
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return out
}

var (
	tab   = tea.KeyPressMsg{Code: tea.KeyTab}
	enter = tea.KeyPressMsg{Code: tea.KeyEnter}
	ctrlS = tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
)

// scene is a dialog in one state, named for its golden file.
type scene = struct {
	name string
	d    func(t *testing.T) room.Dialog
}

// scenes are every dialog, in the states a person sees: as it opens,
// filled in, a field focused, waiting on its request, with an error.
func scenes(st *styles.Styles) []scene {
	launch := func(t *testing.T, parent, title string, msgs ...tea.Msg) room.Dialog {
		d, _ := NewLaunch(st, parent, title, screenW, screenH)
		return step(t, d, append([]tea.Msg{agents}, msgs...)...)
	}
	resume := func(t *testing.T, root bool, msgs ...tea.Msg) room.Dialog {
		d, _ := NewResume(st, "ses_a", "lint the parser package (@general subagent)", root, screenW, screenH)
		return step(t, d, append([]tea.Msg{agents}, msgs...)...)
	}
	state := tree()
	return []scene{
		{"launch-loading", func(t *testing.T) room.Dialog {
			d, _ := NewLaunch(st, "ses_root", "refactor the parser", screenW, screenH)
			return d
		}},
		{"launch-agents", func(t *testing.T) room.Dialog { return launch(t, "ses_root", "refactor the parser") }},
		{"launch-filled", func(t *testing.T) room.Dialog {
			msgs := append([]tea.Msg{enter}, keys("find callers")...)
			msgs = append(append(msgs, enter), keys("list every caller of Parse")...)
			return launch(t, "ses_root", "refactor the parser", msgs...)
		}},
		{"launch-empty-submit", func(t *testing.T) room.Dialog { return launch(t, "ses_root", "refactor the parser", ctrlS) }},
		{"launch-failed", func(t *testing.T) room.Dialog {
			return launch(t, "", "", task.LaunchReply{Err: errors.New("POST /session: 500 Internal Server Error")})
		}},
		{"launch-agents-error", func(t *testing.T) room.Dialog {
			d, _ := NewLaunch(st, "ses_root", "refactor the parser", screenW, screenH)
			return step(t, d, task.AgentsReply{Err: errors.New("GET /agent: connection refused")})
		}},
		{"resume", func(t *testing.T) room.Dialog { return resume(t, false, keys("now fix them")...) }},
		{"resume-agent-field", func(t *testing.T) room.Dialog { return resume(t, false, tab, tea.KeyPressMsg{Code: tea.KeyDown}) }},
		{"resume-root", func(t *testing.T) room.Dialog { return resume(t, true, tab) }},
		{"resume-empty", func(t *testing.T) room.Dialog { return resume(t, false, ctrlS) }},
		{"resume-sending", func(t *testing.T) room.Dialog {
			return resume(t, false, append(keys("again"), ctrlS)...)
		}},
		{"busy", func(t *testing.T) room.Dialog {
			return NewBusy(st, "ses_b", "run the unit tests (@general subagent)", false, screenW, screenH)
		}},
		{"busy-waiting", func(t *testing.T) room.Dialog {
			return step(t, NewBusy(st, "ses_b", "run the unit tests (@general subagent)", false, screenW, screenH), keys("w")...)
		}},
		{"find", func(t *testing.T) room.Dialog {
			d, _ := NewFind(st, screenW, screenH)
			return step(t, d, keys("ses_a")...)
		}},
		{"find-not-found", func(t *testing.T) room.Dialog {
			d, _ := NewFind(st, screenW, screenH)
			return step(t, d, append(keys("ses_nope"), enter, task.FindReply{Err: errors.New("no session ses_nope on this server")})...)
		}},
		{"abort", func(t *testing.T) room.Dialog {
			return NewAbort(st, state, "ses_b", state.BusyDescendants("ses_b"), screenW)
		}},
		{"abort-leaf", func(t *testing.T) room.Dialog { return NewAbort(st, state, "ses_a", nil, screenW) }},
		{"abort-aborting", func(t *testing.T) room.Dialog {
			return step(t, NewAbort(st, state, "ses_a", nil, screenW), keys("y")...)
		}},
		{"abort-tree", func(t *testing.T) room.Dialog {
			return NewAbortTree(st, state, []string{"ses_b1", "ses_a", "ses_b", "ses_root"}, screenW)
		}},
		{"abort-tree-failed", func(t *testing.T) room.Dialog {
			d := NewAbortTree(st, state, []string{"ses_b1", "ses_a", "ses_b", "ses_root"}, screenW)
			return step(t, d, append(keys("y"), task.AbortReply{IDs: []string{"ses_b1"}, Err: errors.New("POST /session/ses_a/abort: timeout")})...)
		}},
	}
}

// TestDialogGolden pins every dialog, in colour and in NO_COLOR; the
// NO_COLOR one has no colour escape. Run with -update after an intended
// change and read the diff.
func TestDialogGolden(t *testing.T) { checkGoldens(t, scenes) }

// checkGoldens pins each scene of the dialogs, in colour and in NO_COLOR.
func checkGoldens(t *testing.T, scenes func(st *styles.Styles) []scene) {
	for _, noColor := range []bool{false, true} {
		st := styles.New(true, noColor)
		for _, sc := range scenes(st) {
			t.Run(map[bool]string{false: "color", true: "nocolor"}[noColor]+"/"+sc.name, func(t *testing.T) {
				out := sc.d(t).View(screenW, screenH)
				if e := colourtest.Escape(out); noColor && e != "" {
					t.Fatalf("a colour escape %s under NO_COLOR:\n%s", e, out)
				}
				if e := colourtest.Escape(out); !noColor && e == "" {
					t.Fatalf("no colour at all in colour:\n%s", out)
				}
				golden.RequireEqual(t, []byte(out))
			})
		}
	}
}
