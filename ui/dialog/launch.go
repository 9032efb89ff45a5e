package dialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

// The launch form's fields, in focus order.
const (
	fieldAgent = iota
	fieldDescription
	fieldPrompt
	fieldCount
)

// Launch is the `n` / `N` dialog: pick an agent, describe the task, write
// the prompt, and launch it as an async task. Opened by NewRetry (`a`), it
// is the retry form: the same, prefilled with a session's original task,
// launching beside it.
type Launch struct {
	st     *styles.Styles
	keys   FormKeyMap
	parent string // "" launches a new root
	title  string // the parent's title

	retryOf   string // the session retried, or ""
	sourcing  bool   // the original task is still being read
	preferred string // the agent to pick once the agents come

	agents picker
	desc   textinput.Model
	prompt textarea.Model
	focus  int

	launching bool
	err       string
	width     int
	height    int // the screen's, to keep the form on it
}

// NewLaunch opens the launch form under parent ("" for a new root) on a
// screen w×h. Its Cmd asks for the agents.
func NewLaunch(st *styles.Styles, parent, parentTitle string, w, h int) (Launch, tea.Cmd) {
	f := Launch{
		st: st, keys: DefaultFormKeyMap(),
		parent: parent, title: format.SessionName(parentTitle),
		width: Width(w, 84), height: h,
	}
	inner := f.width - 4

	// A task (a child) runs a subagent; a new root may also run a
	// primary agent, as the server accepts.
	accepts := TaskAgent
	if parent == "" {
		accepts = RootAgent
	}
	f.agents = newPicker(st, inner, accepts, "")

	f.desc = textinput.New()
	f.desc.Prompt = "› "
	f.desc.Placeholder = "a few words: what the task does"
	f.desc.CharLimit = 200
	f.desc.SetWidth(inner - 2)
	f.desc.SetVirtualCursor(true)
	f.desc.SetStyles(InputStyles(st))

	f.prompt = textarea.New()
	f.prompt.Placeholder = "the task's instructions (enter for a new line, paste works)"
	f.prompt.ShowLineNumbers = false
	f.prompt.SetWidth(inner)
	f.prompt.SetHeight(max(min(8, h-22), 3))
	f.prompt.SetVirtualCursor(true)
	f.prompt.SetStyles(AreaStyles(st))
	f.preferred = "general"
	return f, room.Send(task.AgentsRequest{})
}

// NewRetry opens the launch form to retry session id (titled title; a
// child of parent, "" for a root) on a screen w×h: it reads the original
// task and fills the form with it, to edit before launching.
func NewRetry(st *styles.Styles, id, title, parent string, w, h int) (Launch, tea.Cmd) {
	f, cmd := NewLaunch(st, parent, "", w, h)
	f.retryOf, f.title, f.sourcing = id, format.SessionName(title), true
	return f, tea.Batch(cmd, room.Send(task.RetrySourceRequest{ID: id}))
}

// sourced fills the retry form with the original task.
func (f Launch) sourced(msg task.RetrySourceReply) Launch {
	f.sourcing = false
	if msg.Err != nil {
		f.err = ErrText(msg.Err)
		return f
	}
	r := msg.Req
	f.parent, f.preferred = r.Parent, r.Agent
	f.desc.SetValue(r.Description)
	f.prompt.SetValue(r.Prompt)
	f.agents = f.agents.choose(r.Agent)
	return f
}

// Update handles the replies to the form's requests and its keys.
func (f Launch) Update(msg tea.Msg) (room.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case task.AgentsReply:
		f.agents = f.agents.set(msg, f.preferred, f.height-20)
		return f, nil
	case task.RetrySourceReply:
		return f.sourced(msg), nil
	case task.LaunchReply:
		f.launching = false
		if msg.Err != nil {
			f.err = ErrText(msg.Err)
			return f, nil
		}
		notice := fmt.Sprintf("launched task_id %s  @%s: %s", msg.Session.ID, msg.Req.Agent, msg.Req.Description)
		if msg.Req.RetryOf != "" {
			notice += " (retry of " + msg.Req.RetryOf + ")"
		}
		return nil, tea.Batch(room.Select(msg.Session.ID), room.Flash(notice, false))
	case tea.KeyPressMsg:
		if key.Matches(msg, f.keys.Cancel) {
			return nil, nil
		}
		if f.launching {
			return f, nil // the reply closes the form; a second launch must not start
		}
		switch {
		case key.Matches(msg, f.keys.Submit):
			return f.submit()
		case key.Matches(msg, f.keys.Next):
			return f.setFocus((f.focus + 1) % fieldCount)
		case key.Matches(msg, f.keys.Prev):
			return f.setFocus((f.focus + fieldCount - 1) % fieldCount)
		case msg.String() == "enter" && f.focus != fieldPrompt:
			// Enter moves on from the single-line steps; on the last one
			// it would be a new line, so only ctrl+s launches.
			return f.setFocus(f.focus + 1)
		}
	}
	var cmd tea.Cmd
	switch f.focus {
	case fieldAgent:
		f.agents, cmd = f.agents.update(msg)
	case fieldDescription:
		f.desc, cmd = f.desc.Update(msg)
	case fieldPrompt:
		f.prompt, cmd = f.prompt.Update(msg)
	}
	return f, cmd
}

func (f Launch) setFocus(i int) (room.Dialog, tea.Cmd) {
	f.focus = i
	f.desc.Blur()
	f.prompt.Blur()
	switch i {
	case fieldDescription:
		return f, f.desc.Focus()
	case fieldPrompt:
		return f, f.prompt.Focus()
	}
	return f, nil
}

// submit checks the form and asks for the launch. The actions package
// checks again (and the server's side); this is only to point at the
// empty field.
func (f Launch) submit() (room.Dialog, tea.Cmd) {
	agent, _ := f.agents.selected()
	switch {
	case f.sourcing:
		return f, nil // the form says it is still reading the original
	case agent == "":
		f.err = "no agent to run the task; " + firstNonEmpty(f.agents.err, "the agent list is still loading")
		return f.setFocus(fieldAgent)
	case strings.TrimSpace(f.desc.Value()) == "":
		f.err = "the description is empty; give a few words saying what the task does"
		return f.setFocus(fieldDescription)
	case strings.TrimSpace(f.prompt.Value()) == "":
		f.err = "the prompt is empty"
		return f.setFocus(fieldPrompt)
	}
	f.err = ""
	f.launching = true
	return f, room.Send(task.LaunchRequest{
		Parent: f.parent, Agent: agent, Prompt: f.prompt.Value(),
		Description: strings.Join(strings.Fields(f.desc.Value()), " "),
		RetryOf:     f.retryOf,
	})
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// View draws the form for a w×h screen.
func (f Launch) View(w, h int) string {
	width := Width(w, 84)
	inner := width - 4
	title := "Launch a task under " + f.title
	switch {
	case f.retryOf != "":
		title = "Retry " + f.title
	case f.parent == "":
		title = "Launch a task as a new root session"
	}
	label := func(i int, s string) string {
		if f.focus == i {
			return f.st.Focused.Render("▸ " + s)
		}
		return f.st.Label.Render("  " + s)
	}
	var b strings.Builder
	if f.retryOf != "" {
		where := "beside it, as a new root"
		if f.parent != "" {
			where = "beside it, under " + f.parent
		}
		b.WriteString(f.st.Dim.Render(ansi.Truncate(format.OneLine("retries "+f.retryOf+" · "+where), inner, "…")) + "\n\n")
	} else if f.parent != "" {
		b.WriteString(f.st.Dim.Render(ansi.Truncate("parent "+format.OneLine(f.parent), inner, "…")) + "\n\n")
	}
	b.WriteString(label(fieldAgent, "Agent") + "\n")
	b.WriteString(f.agents.view(f.st, inner))
	b.WriteString("\n\n" + label(fieldDescription, "Description") + "\n")
	b.WriteString(f.desc.View())
	b.WriteString("\n\n" + label(fieldPrompt, "Prompt") + "\n")
	b.WriteString(f.prompt.View())
	if f.sourcing {
		b.WriteString("\n\n" + f.st.Busy.Render("reading the original task…"))
	} else if f.launching {
		b.WriteString("\n\n" + f.st.Busy.Render("launching…"))
	} else if f.err != "" {
		b.WriteString("\n\n" + ErrorLine(f.st, inner, f.err))
	}
	keys := Hint(f.keys.ShortHelp()...)
	switch f.focus {
	case fieldAgent:
		keys = "↑/↓ choose · enter next · " + keys
	case fieldDescription:
		keys = "enter next · " + keys
	}
	return Frame(f.st, width, title, b.String(), keys)
}
