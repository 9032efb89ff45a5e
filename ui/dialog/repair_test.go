package dialog

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

// original is what the retry form reads of a failed child.
var original = task.RetrySourceReply{Req: task.LaunchRequest{Parent: "ses_root", Agent: "explore",
	Description: "find callers", Prompt: "List every caller of Parse", RetryOf: "ses_a"}}

func newRetry(st *styles.Styles) Launch {
	f, _ := NewRetry(st, "ses_a", "find callers (@explore subagent)", "ses_root", screenW, screenH)
	return f
}

// undoPlan is the undo of a child whose file a sibling wrote too, every
// session titled as OpenCode titles a task's child: each is named as its
// row names it ("find callers @explore"), never as stored.
var undoPlan = func() task.UndoPlan {
	a := wire.Session{ID: "ses_a", ParentID: "ses_root", Title: "find callers (@explore subagent)"}
	a1 := wire.Session{ID: "ses_a1", ParentID: "ses_a", Title: "read the parser (@general subagent)"}
	b := wire.Session{ID: "ses_b", ParentID: "ses_root", Title: "run the unit tests (@general subagent)"}
	return task.UndoPlan{Session: a, To: "msg_1", Steps: []task.UndoStep{{Session: a, To: "msg_1"}, {Session: a1, To: "msg_2", Descendant: true}},
		Files: []task.UndoFile{{Path: "callers.txt", Additions: 3, Counted: true, By: []string{"ses_a"},
			AlsoChangedBy: []task.Change{{SessionID: "ses_b", Title: b.Title, Sure: true, How: "write"}}}},
		Others: []wire.Session{b}}
}()

// repairScenes are the steer, retry, undo and redo dialogs in the states
// a person sees.
func repairScenes(st *styles.Styles) []scene {
	say := func(t *testing.T, running bool, msgs ...tea.Msg) room.Dialog {
		d, _ := NewSay(st, "ses_b", "run the unit tests (@general subagent)", running, "", screenW, screenH)
		return step(t, d, msgs...)
	}
	return []scene{
		{"say-running", func(t *testing.T) room.Dialog { return say(t, true, keys("only the parser")...) }},
		{"say-idle", func(t *testing.T) room.Dialog { return say(t, false) }},
		{"say-sending", func(t *testing.T) room.Dialog { return say(t, true, append(keys("stop"), ctrlS)...) }},
		{"say-failed", func(t *testing.T) room.Dialog {
			return say(t, true, append(keys("stop"), ctrlS, task.SayReply{ID: "ses_b", Err: errors.New("no session ses_b on this server")})...)
		}},
		{"retry-reading", func(t *testing.T) room.Dialog { return step(t, newRetry(st), agents) }},
		{"retry-filled", func(t *testing.T) room.Dialog { return step(t, newRetry(st), agents, original) }},
		{"retry-refused", func(t *testing.T) room.Dialog {
			return step(t, newRetry(st), agents, task.RetrySourceReply{Err: errors.New("ses_a is still running; abort it first")})
		}},
		{"undo-preview", func(t *testing.T) room.Dialog { return step(t, undo(st), task.UndoPlanReply{Plan: undoPlan}) }},
		{"undo-others", func(t *testing.T) room.Dialog {
			return step(t, undo(st), task.UndoPlanReply{Plan: undoPlan}, keys("y")[0])
		}},
		{"redo-preview", func(t *testing.T) room.Dialog {
			d, _ := NewRedo(st, "ses_a", undoPlan.Session.Title, nil)
			return step(t, d, task.RedoPlanReply{Plan: task.RedoPlan{Session: undoPlan.Session,
				Steps: []wire.Session{undoPlan.Session}, Files: undoPlan.Files}})
		}},
	}
}

// undo is the undo dialog of undoPlan's session, its plan on its way.
func undo(st *styles.Styles) Undo {
	d, _ := NewUndo(st, "ses_a", undoPlan.Session.Title, nil)
	return d
}

// TestRepairDialogGolden pins the steer and retry dialogs, in colour and
// in NO_COLOR.
func TestRepairDialogGolden(t *testing.T) { checkGoldens(t, repairScenes) }

// sent is the request cmd asks the root to carry out.
func sent(t *testing.T, cmd tea.Cmd) task.Request {
	t.Helper()
	if cmd == nil {
		t.Fatal("no command")
	}
	r, ok := cmd().(task.Request)
	if !ok {
		t.Fatalf("the command sends %T, not a request", cmd())
	}
	return r
}

// The steer dialog sends what was typed, once, and closes on the reply
// with a notice that says whether the model has it queued.
func TestSaySends(t *testing.T) {
	st := styles.New(true, true)
	d, _ := NewSay(st, "ses_b", "tests", true, "", screenW, screenH)
	dlg := step(t, d, keys("only the parser")...)
	dlg, cmd := dlg.Update(ctrlS)
	if r := sent(t, cmd); r != (task.SayRequest{ID: "ses_b", Text: "only the parser"}) {
		t.Errorf("sent %+v", r)
	}
	if _, again := dlg.Update(ctrlS); again != nil {
		t.Error("a second ctrl+s sent a second message")
	}
	closed, cmd := dlg.Update(task.SayReply{ID: "ses_b", Agent: "general", Queued: true})
	if closed != nil || cmd == nil {
		t.Fatal("the reply did not close the dialog with a notice")
	}
	if f, ok := cmd().(room.FlashMsg); !ok || !strings.Contains(f.Text, "queued, the model sees it at its next step") {
		t.Errorf("notice %+v", cmd())
	}
	empty, _ := NewSay(st, "ses_b", "tests", true, "", screenW, screenH)
	if dlg, cmd := empty.Update(ctrlS); cmd != nil || !strings.Contains(ansi.Strip(dlg.View(screenW, screenH)), "the message is empty") {
		t.Error("an empty message was sent")
	}
}

// m in the busy dialog turns to the steer dialog, keeping the draft.
func TestBusySteers(t *testing.T) {
	st := styles.New(true, true)
	b := NewBusy(st, "ses_b", "tests", false, screenW, screenH)
	b.draft = "half a prompt"
	d, _ := b.Update(keys("m")[0])
	s, ok := d.(Say)
	if !ok || s.text.Value() != "half a prompt" || !s.running {
		t.Fatalf("m gave %T %+v", d, d)
	}
}

// The retry form fills in whichever order the agents and the original
// come, picks the original's agent, refuses to launch before it has read
// it, and launches with the link.
func TestRetryForm(t *testing.T) {
	st := styles.New(true, true)
	for name, order := range map[string][]tea.Msg{"agents first": {agents, original}, "original first": {original, agents}} {
		t.Run(name, func(t *testing.T) {
			f := newRetry(st)
			early, cmd := f.Update(ctrlS)
			if cmd != nil || !strings.Contains(ansi.Strip(early.View(screenW, screenH)), "reading the original task…") {
				t.Error("the form launched before the original was read")
			}
			d := step(t, f, order...)
			_, cmd = d.Update(ctrlS)
			want := task.LaunchRequest{Parent: "ses_root", Agent: "explore", Description: "find callers",
				Prompt: "List every caller of Parse", RetryOf: "ses_a"}
			if r := sent(t, cmd); r != want {
				t.Errorf("launched %+v, want %+v", r, want)
			}
		})
	}
}

// TestRepairDialogsNameSessionsAsRows: the steer, retry, undo and redo
// dialogs name every session as its row does, through the one title
// split: the undo's confirmation once read "Undo find callers (@explore
// subagent)?" where the row draws "find callers @explore".
func TestRepairDialogsNameSessionsAsRows(t *testing.T) {
	want := map[string][]string{
		"say-running":  {"Tell run the unit tests @general"},
		"retry-filled": {"Retry find callers @explore"},
		"undo-preview": {"Undo find callers @explore?", "• ses_a find callers @explore", "• ses_a1 read the parser @general (descendant)",
			"! also changed by ses_b run the unit tests @general"},
		"undo-others":  {`the work of ses_b "run the unit tests @general"`},
		"redo-preview": {"Redo find callers @explore?"},
	}
	for _, sc := range repairScenes(styles.New(true, true)) {
		if want[sc.name] == nil {
			continue
		}
		v := ansi.Strip(sc.d(t).View(screenW, screenH))
		for _, w := range want[sc.name] {
			if !strings.Contains(v, w) {
				t.Errorf("%s lacks %q:\n%s", sc.name, w, v)
			}
		}
		if strings.Contains(v, "subagent)") {
			t.Errorf("%s names a session as its title is stored:\n%s", sc.name, v)
		}
	}
}
