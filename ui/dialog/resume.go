package dialog

import (
	"errors"
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

// Resume is the `r` dialog: a new prompt for a finished task, sent to the
// same session (its history continues), as the session's own agent
// unless another is picked: a subagent for a child, any agent the server
// runs for a root.
type Resume struct {
	st      *styles.Styles
	keys    FormKeyMap
	id      string
	title   string
	prompt  textarea.Model
	root    bool
	agent   picker
	onAgent bool // the agent field has the keys, not the prompt
	sending bool
	err     string
	w, h    int
}

// NewResume opens the resume form for session id (a root session when
// root is set) on a w×h screen. Its Cmd asks for the agents.
func NewResume(st *styles.Styles, id, title string, root bool, w, h int) (Resume, tea.Cmd) {
	return newResumeDraft(st, id, title, root, "", w, h)
}

// newResumeDraft opens the form with a prompt already typed, e.g. one
// refused because the session had started running again.
func newResumeDraft(st *styles.Styles, id, title string, root bool, draft string, w, h int) (Resume, tea.Cmd) {
	f := Resume{st: st, keys: DefaultFormKeyMap(), id: id, title: format.SessionName(title), root: root, w: w, h: h}
	f.prompt = promptArea(st, "what the task should do next (enter for a new line, paste works)", draft, w, h)
	accepts := TaskAgent
	if root {
		accepts = RootAgent
	}
	f.agent = newPicker(st, Width(w, 84)-4, accepts, "the session's own agent")
	return f, tea.Batch(f.prompt.Focus(), room.Send(task.AgentsRequest{}))
}

// focus moves the keys to the agent field or back to the prompt.
func (f Resume) focus(onAgent bool) (Resume, tea.Cmd) {
	f.onAgent = onAgent
	if onAgent {
		f.prompt.Blur()
		return f, nil
	}
	return f, f.prompt.Focus()
}

// Update handles the resume's reply and the form's keys.
func (f Resume) Update(msg tea.Msg) (room.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case task.AgentsReply:
		f.agent = f.agent.set(msg, "", f.h-24)
		return f, nil
	case task.ResumeReply:
		return f.resumed(msg)
	case tea.KeyPressMsg:
		if key.Matches(msg, f.keys.Cancel) {
			return nil, nil
		}
		if f.sending {
			return f, nil
		}
		switch {
		case key.Matches(msg, f.keys.Next), key.Matches(msg, f.keys.Prev):
			return f.focus(!f.onAgent)
		case key.Matches(msg, f.keys.Submit), f.onAgent && msg.String() == "enter":
			if strings.TrimSpace(f.prompt.Value()) == "" {
				f.err = "the prompt is empty"
				return f, nil
			}
			agent, _ := f.agent.selected()
			f.sending, f.err = true, ""
			return f, room.Send(task.ResumeRequest{ID: f.id, Prompt: f.prompt.Value(), Agent: agent})
		}
	}
	var cmd tea.Cmd
	if f.onAgent {
		f.agent, cmd = f.agent.update(msg)
	} else {
		f.prompt, cmd = f.prompt.Update(msg)
	}
	return f, cmd
}

func (f Resume) resumed(msg task.ResumeReply) (room.Dialog, tea.Cmd) {
	f.sending = false
	if errors.Is(msg.Err, task.ErrBusy) {
		// It started running again since the key was pressed: offer to
		// wait, and keep what was typed.
		d := NewBusy(f.st, f.id, f.title, f.root, f.w, f.h)
		d.draft = f.prompt.Value()
		return d, nil
	}
	if msg.Err != nil {
		f.err = ErrText(msg.Err)
		return f, nil
	}
	agent := msg.Agent
	if agent == "" {
		agent = "the server's default agent"
	} else {
		agent = "@" + agent
	}
	return nil, room.Flash(fmt.Sprintf("resumed task_id %s  %s", msg.ID, agent), false)
}

// View draws the form for a w×h screen.
func (f Resume) View(w, h int) string {
	width := Width(w, 84)
	inner := width - 4
	var b strings.Builder
	b.WriteString(f.st.Dim.Render(ansi.Truncate("task_id "+f.id+" · continues its history", inner, "…")))
	label := func(name string, on bool) string {
		if on {
			return f.st.Focused.Render("▸ " + name)
		}
		return f.st.Dim.Render("  " + name)
	}
	b.WriteString("\n\n" + label("Prompt", !f.onAgent) + "\n")
	b.WriteString(f.prompt.View())
	b.WriteString("\n\n" + label("Agent", f.onAgent) + "\n")
	b.WriteString(f.agent.view(f.st, inner))
	switch {
	case f.sending:
		b.WriteString("\n\n" + f.st.Busy.Render("sending…"))
	case f.err != "":
		b.WriteString("\n\n" + ErrorLine(f.st, inner, f.err))
	}
	return Frame(f.st, width, "Resume "+f.title, b.String(), Hint(f.keys.ShortHelp()...))
}
