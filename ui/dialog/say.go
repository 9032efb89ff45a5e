package dialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

// Say is the steer dialog (`m`): a message to the selected session, sent
// without waiting for it to stop. A running session's model sees it at its
// next step; an idle one is resumed with it, as `r` would. It goes to the
// agent the session runs as (octop say's rule).
type Say struct {
	st      *styles.Styles
	keys    FormKeyMap
	id      string
	title   string
	running bool // as the screen saw it when the dialog opened
	text    textarea.Model
	sending bool
	err     string
}

// NewSay opens the steer dialog for session id, running or not as the
// screen sees it, on a w×h screen, with draft already typed.
func NewSay(st *styles.Styles, id, title string, running bool, draft string, w, h int) (Say, tea.Cmd) {
	d := Say{st: st, keys: DefaultFormKeyMap(), id: id, title: format.SessionName(title), running: running}
	d.text = promptArea(st, "what the session should know (enter for a new line, paste works)", draft, w, h)
	return d, d.text.Focus()
}

// promptArea is a form's prompt field: as wide as the form, up to 8 lines
// high on a screen h lines high.
func promptArea(st *styles.Styles, placeholder, draft string, w, h int) textarea.Model {
	a := textarea.New()
	a.Placeholder = placeholder
	a.ShowLineNumbers = false
	a.SetWidth(Width(w, 84) - 4)
	a.SetHeight(max(min(8, h-14), 3))
	a.SetVirtualCursor(true)
	a.SetStyles(AreaStyles(st))
	a.SetValue(draft)
	return a
}

// Update handles the reply and the dialog's keys.
func (d Say) Update(msg tea.Msg) (room.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case task.SayReply:
		d.sending = false
		if msg.Err != nil {
			d.err = ErrText(msg.Err)
			return d, nil
		}
		notice := fmt.Sprintf("resumed task_id %s with the message", msg.ID)
		if msg.Queued {
			notice = fmt.Sprintf("told task_id %s: queued, the model sees it at its next step", msg.ID)
		}
		return nil, room.Flash(notice, false)
	case tea.KeyPressMsg:
		if key.Matches(msg, d.keys.Cancel) {
			return nil, nil
		}
		if d.sending {
			return d, nil // the reply closes the dialog; one message goes
		}
		if key.Matches(msg, d.keys.Submit) {
			if strings.TrimSpace(d.text.Value()) == "" {
				d.err = "the message is empty"
				return d, nil
			}
			d.sending, d.err = true, ""
			return d, room.Send(task.SayRequest{ID: d.id, Text: d.text.Value()})
		}
	}
	var cmd tea.Cmd
	d.text, cmd = d.text.Update(msg)
	return d, cmd
}

// View draws the dialog for a w×h screen.
func (d Say) View(w, h int) string {
	width := Width(w, 84)
	inner := width - 4
	what := "running: the model sees this at its next step"
	if !d.running {
		what = "not running: this starts a new run, as resume does"
	}
	var b strings.Builder
	b.WriteString(d.st.Dim.Render(ansi.Truncate("task_id "+format.OneLine(d.id), inner, "…")) + "\n")
	b.WriteString(d.st.Dim.Render(format.Wrap(what, inner)))
	b.WriteString("\n\n" + d.st.Focused.Render("▸ Message") + "\n")
	b.WriteString(d.text.View())
	switch {
	case d.sending:
		b.WriteString("\n\n" + d.st.Busy.Render("sending…"))
	case d.err != "":
		b.WriteString("\n\n" + ErrorLine(d.st, inner, d.err))
	}
	return Frame(d.st, width, "Tell "+d.title, b.String(), Hint(d.keys.Submit, d.keys.Cancel))
}
