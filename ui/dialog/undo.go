package dialog

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

// undoStage is where an undo or redo dialog stands.
type undoStage int

const (
	stageLoading undoStage = iota // reading the plan
	stageBusy                     // sessions of it run: offer an abort
	stagePreview                  // the files, and who else changed them
	stageOthers                   // the second confirmation, naming them
	stageWorking                  // the undo or redo is on its way
)

// Undo is what u and U open. It reads what the undo (or redo) would
// change and shows it; a running session of it is offered an abort
// first; where another session's work would go too, a second yes that
// names those sessions is needed. Then it sends exactly the plan shown
// and says what the server reports it restored.
type Undo struct {
	st    *styles.Styles
	keys  UndoKeyMap
	redo  bool
	id    string
	title string
	abort []string // what the busy stage's yes stops: the subtree's running sessions

	stage    undoStage
	undoPlan task.UndoPlan
	redoPlan task.RedoPlan
	files    []task.UndoFile
	// unrecorded are files the undone steps wrote that the server kept no
	// snapshot of (task.UndoPlan.Unrecorded): said, never restored.
	unrecorded []string
	steps      []task.UndoStep
	others     []wire.Session
	busy       []wire.Session
	sel        int
	diff       bool
	err        string
}

// NewUndo opens the undo of session id (u); abort is its model.State.AbortPlan.
func NewUndo(st *styles.Styles, id, title string, abort []string) (Undo, tea.Cmd) {
	d := Undo{st: st, keys: DefaultUndoKeyMap(), id: id, title: format.SessionName(title), abort: abort}
	return d, room.Send(task.UndoPlanRequest{ID: id})
}

// NewRedo opens the redo of session id (U).
func NewRedo(st *styles.Styles, id, title string, abort []string) (Undo, tea.Cmd) {
	d := Undo{st: st, keys: DefaultUndoKeyMap(), redo: true, id: id, title: format.SessionName(title), abort: abort}
	return d, room.Send(task.RedoPlanRequest{ID: id})
}

// replan asks for the plan again.
func (d Undo) replan() (room.Dialog, tea.Cmd) {
	d.stage, d.err = stageLoading, ""
	if d.redo {
		return d, room.Send(task.RedoPlanRequest{ID: d.id})
	}
	return d, room.Send(task.UndoPlanRequest{ID: d.id})
}

// Update handles the replies and the keys.
func (d Undo) Update(msg tea.Msg) (room.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case task.UndoPlanReply:
		if msg.Err != nil {
			return d.failed(msg.Err)
		}
		d.undoPlan = msg.Plan
		d.unrecorded = msg.Plan.Unrecorded
		return d.planned(msg.Plan.Files, msg.Plan.Steps, msg.Plan.Others, msg.Plan.Busy)
	case task.RedoPlanReply:
		if errors.Is(msg.Err, task.ErrNotReverted) {
			return nil, room.Flash(ErrText(msg.Err), false)
		}
		if msg.Err != nil {
			return d.failed(msg.Err)
		}
		d.redoPlan = msg.Plan
		var steps []task.UndoStep
		for i, s := range msg.Plan.Steps {
			steps = append(steps, task.UndoStep{Session: s, Descendant: i > 0 && s.ID != d.id})
		}
		return d.planned(msg.Plan.Files, steps, msg.Plan.Others, msg.Plan.Busy)
	case task.AbortReply:
		if msg.Err != nil && !errors.Is(msg.Err, task.ErrNotRunning) {
			return d.failed(msg.Err)
		}
		return d.replan()
	case task.UndoReply:
		return d.undone(msg)
	case task.RedoReply:
		return d.redone(msg)
	case tea.KeyPressMsg:
		return d.key(msg)
	}
	return d, nil
}

// planned shows a plan: the abort offer first if some of it runs.
func (d Undo) planned(files []task.UndoFile, steps []task.UndoStep, others, busy []wire.Session) (room.Dialog, tea.Cmd) {
	d.files, d.steps, d.others, d.busy = files, steps, others, busy
	d.sel = min(d.sel, max(len(files)-1, 0))
	d.stage = stagePreview
	if len(busy) > 0 {
		d.stage = stageBusy
	}
	return d, nil
}

// failed shows err and lets the person back out or try again.
func (d Undo) failed(err error) (room.Dialog, tea.Cmd) {
	d.err = ErrText(err)
	if d.stage == stageLoading {
		d.stage = stagePreview
	}
	if d.stage == stageWorking || d.stage == stageOthers {
		d.stage = stagePreview
	}
	return d, nil
}

// key handles the keys of each stage.
func (d Undo) key(msg tea.KeyPressMsg) (room.Dialog, tea.Cmd) {
	switch {
	case key.Matches(msg, d.keys.No):
		if d.stage == stageOthers {
			d.stage = stagePreview // back to the preview
			return d, nil
		}
		return nil, nil
	case d.stage == stageLoading || d.stage == stageWorking:
		return d, nil
	case key.Matches(msg, d.keys.Diff):
		d.diff = !d.diff
	case key.Matches(msg, d.keys.Down):
		d.sel = min(d.sel+1, max(len(d.files)-1, 0))
	case key.Matches(msg, d.keys.Up):
		d.sel = max(d.sel-1, 0)
	case key.Matches(msg, d.keys.Yes):
		return d.yes()
	}
	return d, nil
}

// yes moves on: the abort, the second confirmation, or the undo itself.
func (d Undo) yes() (room.Dialog, tea.Cmd) {
	switch {
	case d.stage == stageBusy:
		d.stage, d.err = stageLoading, ""
		return d, room.Send(task.AbortRequest{IDs: d.abort, Tree: true})
	case d.err != "" && d.files == nil && d.steps == nil:
		return d.replan() // the plan failed: y reads it again
	case d.stage == stagePreview && len(d.others) > 0:
		d.stage = stageOthers
		return d, nil
	}
	var consent []string
	if d.stage == stageOthers {
		consent = idsOf(d.others)
	}
	d.stage, d.err = stageWorking, ""
	if d.redo {
		return d, room.Send(task.RedoRequest{Plan: d.redoPlan, Consent: consent})
	}
	return d, room.Send(task.UndoRequest{Plan: d.undoPlan, Consent: consent})
}

// undone closes on success with what the server restored; a server whose
// account differs from the preview is said in the error colour.
func (d Undo) undone(msg task.UndoReply) (room.Dialog, tea.Cmd) {
	if msg.Err != nil {
		return d.failed(msg.Err)
	}
	r := msg.Result
	var paths []string
	for _, s := range r.Restored {
		paths = append(paths, s.Path)
	}
	text := fmt.Sprintf("undone %s (%d %s): restored %s · U redoes", d.id, len(r.Reverted), format.Noun(len(r.Reverted), "session", "sessions"), listOrNone(paths))
	if !r.Check.OK() {
		return nil, room.Flash(fmt.Sprintf("undone %s, but the server's account differs from the preview: %s", d.id, r.Check), true)
	}
	return nil, room.Flash(text, false)
}

// redone closes on success.
func (d Undo) redone(msg task.RedoReply) (room.Dialog, tea.Cmd) {
	if msg.Err != nil {
		return d.failed(msg.Err)
	}
	n := len(msg.Result.Unreverted)
	return nil, room.Flash(fmt.Sprintf("redone %s (%d %s): its changes are back", d.id, n, format.Noun(n, "session", "sessions")), false)
}

func idsOf(ss []wire.Session) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.ID
	}
	return out
}

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "no file"
	}
	return strings.Join(xs, ", ")
}
