package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/actions"
	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/ui/styles"
)

// waitLimit bounds how long the busy dialog waits for a session to finish
// before a resume. The person can stop waiting sooner with esc.
const waitLimit = 2 * time.Hour

// resumedMsg is the reply to a resume.
type resumedMsg struct {
	seq int64
	r   actions.Resumed
	err error
}

// resumeForm is the `r` dialog: a new prompt for a finished task, sent to
// the same session (its history continues), as the session's own agent
// unless another is named.
type resumeForm struct {
	seq     int64
	c       *client.Client
	st      *styles.Styles
	keys    FormKeyMap
	id      string
	title   string
	prompt  textarea.Model
	agent   textinput.Model
	onAgent bool // the agent field has the keys, not the prompt
	sending bool
	err     string
}

func newResumeForm(c *client.Client, st *styles.Styles, id, title string, w, h int) (Dialog, tea.Cmd) {
	return newResumeFormDraft(c, st, id, title, "", w, h)
}

// newResumeFormDraft opens the form with a prompt already typed, e.g. one
// refused because the session had started running again.
func newResumeFormDraft(c *client.Client, st *styles.Styles, id, title, draft string, w, h int) (Dialog, tea.Cmd) {
	f := resumeForm{seq: nextSeq(), c: c, st: st, keys: DefaultFormKeyMap(), id: id, title: title}
	f.prompt = textarea.New()
	f.prompt.Placeholder = "what the task should do next (enter for a new line, paste works)"
	f.prompt.ShowLineNumbers = false
	f.prompt.SetWidth(dialogWidth(w, 84) - 4)
	f.prompt.SetHeight(max(min(8, h-14), 3))
	f.prompt.SetVirtualCursor(true)
	f.prompt.SetStyles(areaStyles(st))
	f.prompt.SetValue(draft)
	f.agent = textinput.New()
	f.agent.Prompt = "› "
	f.agent.Placeholder = "blank: the session's own agent"
	f.agent.SetVirtualCursor(true)
	f.agent.SetWidth(dialogWidth(w, 84) - 8)
	return f, f.prompt.Focus()
}

// focus moves the keys to the agent field or back to the prompt.
func (f resumeForm) focus(onAgent bool) (resumeForm, tea.Cmd) {
	f.onAgent = onAgent
	if onAgent {
		f.prompt.Blur()
		return f, f.agent.Focus()
	}
	f.agent.Blur()
	return f, f.prompt.Focus()
}

func (f resumeForm) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case resumedMsg:
		if msg.seq != f.seq {
			return f, nil
		}
		f.sending = false
		if errors.Is(msg.err, actions.ErrBusy) {
			// It started running again since the key was pressed: offer
			// to wait, and keep what was typed.
			return busyDialog{seq: nextSeq(), c: f.c, st: f.st, id: f.id, title: f.title, draft: f.prompt.Value(), keys: defaultBusyKeys()}, nil
		}
		if msg.err != nil {
			f.err = errText(msg.err)
			return f, nil
		}
		agent := msg.r.Agent
		if agent == "" {
			agent = "the server's default agent"
		} else {
			agent = "@" + agent
		}
		return nil, flashCmd(fmt.Sprintf("resumed task_id %s  %s", msg.r.Session.ID, agent), false)
	case tea.KeyPressMsg:
		if f.sending {
			return f, nil
		}
		switch {
		case key.Matches(msg, f.keys.Cancel):
			return nil, nil
		case key.Matches(msg, f.keys.Next), key.Matches(msg, f.keys.Prev):
			return f.focus(!f.onAgent)
		case key.Matches(msg, f.keys.Submit), f.onAgent && msg.String() == "enter":
			if strings.TrimSpace(f.prompt.Value()) == "" {
				f.err = "the prompt is empty"
				return f, nil
			}
			f.sending, f.err = true, ""
			seq, c, id, text, agent := f.seq, f.c, f.id, f.prompt.Value(), strings.TrimSpace(f.agent.Value())
			return f, func() tea.Msg {
				return withTimeout(func(ctx context.Context) tea.Msg {
					r, err := actions.Resume(ctx, c, id, text, agent)
					return resumedMsg{seq: seq, r: r, err: err}
				})
			}
		}
	}
	var cmd tea.Cmd
	if f.onAgent {
		f.agent, cmd = f.agent.Update(msg)
	} else {
		f.prompt, cmd = f.prompt.Update(msg)
	}
	return f, cmd
}

func (f resumeForm) View(w, h int) string {
	width := dialogWidth(w, 84)
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
	b.WriteString(f.agent.View())
	switch {
	case f.sending:
		b.WriteString("\n\n" + f.st.Busy.Render("sending…"))
	case f.err != "":
		b.WriteString("\n\n" + errorLine(f.st, inner, f.err))
	}
	return frame(f.st, width, "Resume "+f.title, b.String(), hint(f.keys.Submit, f.keys.Next, f.keys.Cancel))
}

// busyKeys are the busy dialog's choices.
type busyKeys struct {
	Wait   key.Binding
	Cancel key.Binding
}

func defaultBusyKeys() busyKeys {
	return busyKeys{
		Wait:   key.NewBinding(key.WithKeys("w", "enter"), key.WithHelp("w/enter", "wait for it, then write the prompt")),
		Cancel: key.NewBinding(key.WithKeys("esc", "n"), key.WithHelp("esc", "cancel")),
	}
}

// waitedMsg says the session a busy dialog waited for stopped running.
type waitedMsg struct {
	seq int64
	r   actions.TaskResult
	err error
}

// busyDialog is what `r` opens on a running session: a second prompt now
// would race the first, so it offers to wait for the run to end (or to
// cancel) instead of ever sending two at once.
type busyDialog struct {
	seq     int64
	c       *client.Client
	st      *styles.Styles
	keys    busyKeys
	id      string
	title   string
	draft   string
	waiting bool
	stop    context.CancelFunc
	err     string
	w, h    int
}

func newBusyDialog(c *client.Client, st *styles.Styles, id, title string, w, h int) busyDialog {
	return busyDialog{seq: nextSeq(), c: c, st: st, keys: defaultBusyKeys(), id: id, title: title, w: w, h: h}
}

func (d busyDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case waitedMsg:
		if msg.seq != d.seq {
			return d, nil
		}
		d.waiting = false
		if msg.err != nil {
			d.err = errText(msg.err)
			return d, nil
		}
		return newResumeFormDraft(d.c, d.st, d.id, d.title, d.draft, d.w, d.h)
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, d.keys.Cancel):
			if d.stop != nil {
				d.stop()
			}
			return nil, nil
		case key.Matches(msg, d.keys.Wait) && !d.waiting:
			ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
			d.waiting, d.stop, d.err = true, cancel, ""
			seq, c, id := d.seq, d.c, d.id
			return d, func() tea.Msg {
				defer cancel()
				r, err := actions.Wait(ctx, c, id)
				return waitedMsg{seq: seq, r: r, err: err}
			}
		}
	}
	return d, nil
}

func (d busyDialog) View(w, h int) string {
	width := dialogWidth(w, 72)
	inner := width - 4
	var b strings.Builder
	b.WriteString(ansi.Wrap(d.id+" is still running. A prompt sent now would race the run in progress.", inner, " "))
	keys := hint(d.keys.Wait, d.keys.Cancel)
	switch {
	case d.waiting:
		b.WriteString("\n\n" + d.st.Busy.Render("waiting for it to finish…"))
		keys = "esc stop waiting"
	case d.err != "":
		b.WriteString("\n\n" + errorLine(d.st, inner, d.err))
	}
	return frame(d.st, width, "Resume "+d.title, b.String(), keys)
}

// foundMsg is the reply to the task_id lookup of `R`.
type foundMsg struct {
	seq   int64
	found actions.Found
	err   error
}

// resumeByIDForm is the `R` dialog: type or paste a task_id; octop checks
// it with GET /session/{id} and sends nothing for an unknown one, then
// selects it and goes on as `r`.
type resumeByIDForm struct {
	seq      int64
	c        *client.Client
	st       *styles.Styles
	keys     FormKeyMap
	input    textinput.Model
	checking bool
	err      string
	w, h     int
}

func newResumeByIDForm(c *client.Client, st *styles.Styles, w, h int) (Dialog, tea.Cmd) {
	f := resumeByIDForm{seq: nextSeq(), c: c, st: st, keys: DefaultFormKeyMap(), w: w, h: h}
	f.input = textinput.New()
	f.input.Prompt = "› "
	f.input.Placeholder = "ses_…"
	f.input.CharLimit = 80
	f.input.SetWidth(dialogWidth(w, 64) - 6)
	f.input.SetVirtualCursor(true)
	f.input.SetStyles(inputStyles(st))
	return f, f.input.Focus()
}

func (f resumeByIDForm) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case foundMsg:
		if msg.seq != f.seq {
			return f, nil
		}
		f.checking = false
		if msg.err != nil {
			f.err = errText(msg.err)
			return f, nil
		}
		s := msg.found.Session
		title := s.Title
		if title == "" {
			title = s.ID
		}
		sel := selectCmd(s.ID)
		if msg.found.Running() {
			return newBusyDialog(f.c, f.st, s.ID, title, f.w, f.h), sel
		}
		d, cmd := newResumeForm(f.c, f.st, s.ID, title, f.w, f.h)
		return d, tea.Batch(sel, cmd)
	case tea.KeyPressMsg:
		if f.checking {
			return f, nil
		}
		switch {
		case key.Matches(msg, f.keys.Cancel):
			return nil, nil
		case key.Matches(msg, f.keys.Submit) || msg.String() == "enter":
			id := strings.TrimSpace(f.input.Value())
			if id == "" {
				f.err = "type or paste a task_id (ses_…)"
				return f, nil
			}
			f.checking, f.err = true, ""
			seq, c := f.seq, f.c
			return f, func() tea.Msg {
				return withTimeout(func(ctx context.Context) tea.Msg {
					found, err := actions.Find(ctx, c, id)
					return foundMsg{seq: seq, found: found, err: err}
				})
			}
		}
	}
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	return f, cmd
}

func (f resumeByIDForm) View(w, h int) string {
	width := dialogWidth(w, 64)
	inner := width - 4
	var b strings.Builder
	b.WriteString(f.input.View())
	switch {
	case f.checking:
		b.WriteString("\n\n" + f.st.Busy.Render("looking it up…"))
	case f.err != "":
		b.WriteString("\n\n" + errorLine(f.st, inner, f.err))
	}
	return frame(f.st, width, "Resume a task by its task_id", b.String(), "enter look it up · esc cancel")
}
