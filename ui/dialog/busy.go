package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

// Busy is what `r` opens on a running session: a second run now would
// race the first, so it offers to wait for the run to end, to tell the
// running session something instead (m, the steer dialog), or to cancel,
// never starting two at once. Closing it stops the wait: the
// root cancels the request.
type Busy struct {
	st      *styles.Styles
	keys    BusyKeyMap
	id      string
	title   string
	draft   string
	root    bool
	waiting bool
	err     string
	w, h    int
}

// NewBusy opens the busy dialog for session id (a root when root is set)
// on a w×h screen.
func NewBusy(st *styles.Styles, id, title string, root bool, w, h int) Busy {
	return Busy{st: st, keys: DefaultBusyKeyMap(), id: id, title: format.SessionName(title), root: root, w: w, h: h}
}

// Update handles the wait's end and the dialog's keys.
func (d Busy) Update(msg tea.Msg) (room.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case task.WaitReply:
		d.waiting = false
		if msg.Err != nil {
			d.err = ErrText(msg.Err)
			return d, nil
		}
		return newResumeDraft(d.st, d.id, d.title, d.root, d.draft, d.w, d.h)
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, d.keys.Cancel):
			return nil, nil
		case key.Matches(msg, d.keys.Wait) && !d.waiting:
			d.waiting, d.err = true, ""
			return d, room.Send(task.WaitRequest{ID: d.id})
		case key.Matches(msg, d.keys.Steer) && !d.waiting:
			// Not a second run: a word the model sees at its next step.
			return NewSay(d.st, d.id, d.title, true, d.draft, d.w, d.h)
		}
	}
	return d, nil
}

// View draws the dialog for a w×h screen.
func (d Busy) View(w, h int) string {
	width := Width(w, 72)
	inner := width - 4
	var b strings.Builder
	b.WriteString(format.Wrap(d.id+" is still running. A prompt sent now would race the run in progress.", inner))
	keys := Hint(d.keys.ShortHelp()...)
	switch {
	case d.waiting:
		b.WriteString("\n\n" + d.st.Busy.Render("waiting for it to finish…"))
		keys = "esc stop waiting"
	case d.err != "":
		b.WriteString("\n\n" + ErrorLine(d.st, inner, d.err))
	}
	return Frame(d.st, width, "Resume "+d.title, b.String(), keys)
}
