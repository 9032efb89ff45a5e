package room

import (
	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Dialog is a room shown over the screen. While it is open it receives
// every key, and every message the root does not handle itself (so it
// sees the replies to its requests). Update returns nil to close it; the
// root then cancels whatever the dialog still has in flight.
type Dialog interface {
	Update(msg tea.Msg) (Dialog, tea.Cmd)
	View(width, height int) string
}

// Observer is a room that follows the live tree: after every batch of
// stream events (evs) and every clock tick (evs nil), the root hands it
// the model it owns and the time, and shows the Dialog it returns. The
// room must only read st, and only during the call.
type Observer interface {
	Observe(st *model.State, evs []wire.Event, nowMS int64) Dialog
}

// Wanter is a room that shows sessions' calls, texts or todos from the
// model (the timeline's subtree): the root has the history reader read
// them, again if they were sealed, and keep them whole while it is open.
type Wanter interface {
	Wants() []string
}

// FlashMsg shows a one-line notice in the footer for a few seconds: an
// action's result, or why it cannot run.
type FlashMsg struct {
	Text  string
	Error bool
}

// SelectMsg asks the screen to select a session, unfolding its ancestors:
// the task an action just launched, or the task_id typed for a resume. The
// session may not have arrived through the stream yet; it is then selected
// as soon as it does.
type SelectMsg struct{ ID string }

// Flash is a Cmd that shows a notice.
func Flash(text string, isErr bool) tea.Cmd {
	return func() tea.Msg { return FlashMsg{Text: text, Error: isErr} }
}

// Select is a Cmd that selects a session.
func Select(id string) tea.Cmd {
	return func() tea.Msg { return SelectMsg{ID: id} }
}

// Send is a Cmd that hands a request to the root, which carries it out
// and hands the reply back to the room.
func Send(r task.Request) tea.Cmd {
	return func() tea.Msg { return r }
}
