package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

// Find is the `R` dialog: type or paste a task_id; it is looked up (GET
// /session/{id}, nothing sent for an unknown one), selected, and the
// dialog goes on as `r` would.
type Find struct {
	st       *styles.Styles
	keys     FormKeyMap
	input    textinput.Model
	checking bool
	err      string
	w, h     int
}

// NewFind opens the resume-by-task_id form on a w×h screen.
func NewFind(st *styles.Styles, w, h int) (Find, tea.Cmd) {
	f := Find{st: st, keys: DefaultFormKeyMap(), w: w, h: h}
	f.input = textinput.New()
	f.input.Prompt = "› "
	f.input.Placeholder = "ses_…"
	f.input.CharLimit = 80
	f.input.SetWidth(Width(w, 64) - 6)
	f.input.SetVirtualCursor(true)
	f.input.SetStyles(InputStyles(st))
	return f, f.input.Focus()
}

// Update handles the lookup's reply and the form's keys.
func (f Find) Update(msg tea.Msg) (room.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case task.FindReply:
		return f.found(msg)
	case tea.KeyPressMsg:
		if key.Matches(msg, f.keys.Cancel) {
			return nil, nil
		}
		if f.checking {
			return f, nil
		}
		if key.Matches(msg, f.keys.Submit) || msg.String() == "enter" {
			id := strings.TrimSpace(f.input.Value())
			if id == "" {
				f.err = "type or paste a task_id (ses_…)"
				return f, nil
			}
			f.checking, f.err = true, ""
			return f, room.Send(task.FindRequest{ID: id})
		}
	}
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	return f, cmd
}

func (f Find) found(msg task.FindReply) (room.Dialog, tea.Cmd) {
	f.checking = false
	if msg.Err != nil {
		f.err = ErrText(msg.Err)
		return f, nil
	}
	s := msg.Session
	title := format.OneLine(s.Title)
	if title == "" {
		title = format.OneLine(s.ID)
	}
	sel := room.Select(s.ID)
	root := s.ParentID == ""
	if msg.Running {
		return NewBusy(f.st, s.ID, title, root, f.w, f.h), sel
	}
	d, cmd := NewResume(f.st, s.ID, title, root, f.w, f.h)
	return d, tea.Batch(sel, cmd)
}

// View draws the form for a w×h screen.
func (f Find) View(w, h int) string {
	width := Width(w, 64)
	inner := width - 4
	var b strings.Builder
	b.WriteString(f.input.View())
	switch {
	case f.checking:
		b.WriteString("\n\n" + f.st.Busy.Render("looking it up…"))
	case f.err != "":
		b.WriteString("\n\n" + ErrorLine(f.st, inner, f.err))
	}
	return Frame(f.st, width, "Resume a task by its task_id", b.String(), "enter look it up · esc cancel")
}
