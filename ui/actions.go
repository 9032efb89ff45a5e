package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

// Action is what one of the reserved keys asks for. The tree screen only
// routes them; the actions package (wired in by cmd/octop) carries them out.
type Action int

// The reserved actions, one per key.
const (
	ActionLaunch     Action = iota // n: launch a new task
	ActionResume                   // r: resume the selected session
	ActionResumeByID               // R: resume a session by typed task_id
	ActionAbort                    // x: abort the selected session
	ActionAbortTree                // X: abort the selected session's subtree
	ActionOpen                     // o: open the selected session's result
	ActionCopyID                   // y: copy the selected session's task_id
	ActionInbox                    // i: the inbox of pending permissions and questions
	ActionLaunchRoot               // N: launch a task as a new root session
)

var actionNames = [...]string{"launch", "resume", "resume by id", "abort", "abort subtree", "open", "copy task_id", "inbox", "launch root"}

// String names the action, e.g. "abort subtree".
func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return "action"
}

// ReadOnly reports whether the action leaves the server alone, so that it
// may run in demo mode too.
func (a Action) ReadOnly() bool {
	return a == ActionOpen || a == ActionCopyID || a == ActionInbox
}

// ActionRequest is what an action starts from: plain values the root holds
// at the moment the key was pressed.
type ActionRequest struct {
	Action Action
	// Selected is the selected session's id, "" when the tree is empty.
	Selected string
	// State is the live tree. Read it, never change it: the change an
	// action makes comes back as server events.
	State *model.State
	// Width and Height are the screen's size, for sizing a dialog.
	Width, Height int
	Demo          bool
	// Styles are the screen's styles, for drawing a dialog to match.
	Styles *styles.Styles
}

// Actions carries out the reserved keys. Start runs in Update, so it must
// not block or do I/O itself: it returns a Dialog to show (or nil) and a
// Cmd for the work (or nil). Results come back as messages; FlashMsg shows
// a one-line notice.
type Actions interface {
	Start(req ActionRequest) (Dialog, tea.Cmd)
}

// Dialog is a modal an action opens over the screen. While it is open it
// receives every key, and every message the root does not handle itself
// (so it sees its own Cmds' replies). Update returns nil to close it.
type Dialog interface {
	Update(msg tea.Msg) (Dialog, tea.Cmd)
	View(width, height int) string
}

// startAction is the one place the reserved keys go through.
func (m Model) startAction(a Action) (Model, tea.Cmd) {
	// The demo has no server behind it: even reading a result or copying
	// an id would act on a session that does not exist.
	if m.opts.Demo && (!a.ReadOnly() || m.opts.Actions == nil) {
		return m.flash(FlashMsg{Text: "demo is read-only"})
	}
	if m.opts.Actions == nil {
		return m.flash(FlashMsg{Text: a.String() + ": not available yet"})
	}
	d, cmd := m.opts.Actions.Start(ActionRequest{
		Action:   a,
		Selected: m.tree.Selected(),
		State:    m.state,
		Width:    m.width,
		Height:   m.height,
		Demo:     m.opts.Demo,
		Styles:   m.styles,
	})
	m.dialog = d
	return m, cmd
}
