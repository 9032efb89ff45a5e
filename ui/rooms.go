package ui

// This file opens the rooms: the reserved keys each open one (or answer
// at once with a notice), and the requests a room returns are carried
// out here: the root stamps each with the dialog that made it, starts it
// through inflight.List and hands the reply back to that dialog.

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/ui/dialog"
	uidiff "github.com/octop-dev/octop/ui/diff"
	"github.com/octop-dev/octop/ui/inbox"
	"github.com/octop-dev/octop/ui/keymap"
	"github.com/octop-dev/octop/ui/markdown"
	"github.com/octop-dev/octop/ui/result"
	"github.com/octop-dev/octop/ui/room"
	uitimeline "github.com/octop-dev/octop/ui/timeline"
	uitranscript "github.com/octop-dev/octop/ui/transcript"
	uiusage "github.com/octop-dev/octop/ui/usage"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/ui/inflight"
)

// startAction is the one place the reserved keys go through: it opens the
// action's room, or answers at once with a notice.
func (m Model) startAction(a keymap.Action) (Model, tea.Cmd) {
	// A recording has no server behind it to change, a read-only one is
	// not to be changed; what they have shown can still be read.
	if (m.opts.Demo || m.opts.ReadOnly != "") && !a.ReadOnly() {
		return m.flash(FlashMsg{Text: m.readOnlyNotice()})
	}
	if m.opts.Server == nil && a != keymap.ActionTimeline {
		return m.flash(FlashMsg{Text: a.String() + ": not available yet"})
	}
	d, cmd := m.room(a)
	if d == nil {
		return m, cmd
	}
	m.dialogGen++
	m.dialog = d
	return m, inflight.Stamp(m.dialogGen, cmd)
}

// readOnlyNotice is what a key that would change something answers in a
// recording.
func (m Model) readOnlyNotice() string {
	if m.opts.ReadOnly != "" {
		return m.opts.ReadOnly
	}
	return "demo: read-only"
}

// closeDialog closes the dialog and cancels what it has in flight; an
// request of it still on its way is dropped by its generation.
func (m *Model) closeDialog() {
	m.dialog = nil
	m.dialogGen++
	m.cancelRequests(false)
}

// room builds the room an action opens, or the Cmd of an action that
// needs none.
func (m Model) room(a keymap.Action) (room.Dialog, tea.Cmd) {
	st, w, h := m.styles, m.width, m.height
	sel := m.tree.Selected()
	ss := m.state.Session(sel)
	title := dialog.TitleOf(ss, sel)
	if sel == "" && a != keymap.ActionLaunchRoot && a != keymap.ActionResumeByID && a != keymap.ActionInbox {
		if a == keymap.ActionLaunch {
			return nil, room.Flash("select the session to launch under (N launches a new root)", true)
		}
		return nil, room.Flash("select a session to "+map[keymap.Action]string{keymap.ActionResume: "resume",
			keymap.ActionAbort: "abort", keymap.ActionAbortTree: "abort", keymap.ActionOpen: "open", keymap.ActionCopyID: "copy",
			keymap.ActionTranscript: "read", keymap.ActionDiff: "see the changes of", keymap.ActionTimeline: "chart", keymap.ActionUsage: "add up",
			keymap.ActionSteer: "tell something", keymap.ActionRetry: "retry", keymap.ActionUndo: "undo", keymap.ActionRedo: "redo"}[a]+" first", true)
	}
	switch a {
	case keymap.ActionLaunch:
		return dialog.NewLaunch(st, sel, title, w, h)
	case keymap.ActionLaunchRoot:
		return dialog.NewLaunch(st, "", "", w, h)
	case keymap.ActionResume:
		root := ss == nil || ss.ParentID == ""
		if ss != nil && ss.Running() {
			return dialog.NewBusy(st, sel, title, root, w, h), nil
		}
		return dialog.NewResume(st, sel, title, root, w, h)
	case keymap.ActionResumeByID:
		return dialog.NewFind(st, w, h)
	case keymap.ActionSteer:
		return dialog.NewSay(st, sel, title, ss != nil && ss.Running(), "", w, h)
	case keymap.ActionRetry:
		if ss != nil && ss.Running() {
			return nil, room.Flash(fmt.Sprintf("%s is still running: abort it first (x), or tell it something (m)", sel), true)
		}
		parent := ""
		if ss != nil {
			parent = ss.ParentID
		}
		return dialog.NewRetry(st, sel, title, parent, w, h)
	case keymap.ActionAbort:
		if ss == nil || !ss.Running() {
			return nil, room.Flash(fmt.Sprintf("%s is idle; nothing to abort", sel), false)
		}
		return dialog.NewAbort(st, m.state, sel, m.state.BusyDescendants(sel), w), nil
	case keymap.ActionAbortTree:
		plan := m.state.AbortPlan(sel)
		if len(plan) == 0 {
			return nil, room.Flash(fmt.Sprintf("nothing runs in the subtree of %s; nothing to abort", sel), false)
		}
		return dialog.NewAbortTree(st, m.state, plan, w), nil
	case keymap.ActionOpen:
		return result.New(st, sel, title, w, h)
	case keymap.ActionCopyID:
		return nil, tea.Batch(tea.SetClipboard(sel), room.Flash("copied task_id "+sel, false))
	case keymap.ActionInbox:
		return inbox.New(st, m.state, w), nil
	case keymap.ActionTranscript:
		return uitranscript.Open(st, sel, title, markdown.New(st.IsDark, st.NoColor).Render)
	case keymap.ActionDiff:
		return uidiff.Open(st, sel, title)
	case keymap.ActionTimeline:
		return uitimeline.Open(st, m.state, sel, m.now.UnixMilli()), nil
	case keymap.ActionUsage:
		return uiusage.Open(st, m.state, sel, title)
	case keymap.ActionUndo:
		return dialog.NewUndo(st, sel, title, m.state.AbortPlan(sel))
	case keymap.ActionRedo:
		if ss == nil || ss.Reverted() == nil {
			return nil, room.Flash(sel+" has nothing undone to redo", false)
		}
		return dialog.NewRedo(st, sel, title, m.state.AbortPlan(sel))
	}
	return nil, room.Flash(a.String()+": not available yet", false)
}

// startRequest starts an request's call, unless the dialog that made it
// has closed (a detached request, an inbox answer, runs regardless).
func (m Model) startRequest(s inflight.Stamped) (Model, tea.Cmd) {
	detached := false
	if d, ok := s.Req.(task.Detached); ok {
		detached = d.Detached()
	}
	if m.opts.Server == nil || (!detached && (m.dialog == nil || s.Gen != m.dialogGen)) {
		return m, nil // its dialog was closed before the intent arrived
	}
	var cmd tea.Cmd
	m.calls, cmd = m.calls.Start(m.opts.Server, s.Req, detached)
	return m, cmd
}

// updateReply hands a reply to the dialog that asked, and shows a
// detached request's notice; a cancelled request's reply is dropped.
func (m Model) updateReply(r inflight.Reply) (tea.Model, tea.Cmd) {
	var detached, ok bool
	if m.calls, detached, ok = m.calls.Finish(r); !ok {
		return m, nil
	}
	var flash tea.Cmd
	if a, ok := r.Reply.(task.AnswerReply); ok && detached {
		flash = room.Flash(a.Notice())
	}
	if m.dialog == nil {
		return m, flash
	}
	nm, cmd := m.updateDialog(r.Reply)
	return nm, tea.Batch(flash, cmd)
}

// cancelRequests cancels the requests in flight: all of them, or only
// those bound to the dialog.
func (m *Model) cancelRequests(all bool) { m.calls = m.calls.Cancel(all) }

// dialogBusy says the open dialog waits on a request of its own.
func (m Model) dialogBusy() bool { return m.calls.Busy() }
