package ui

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/list"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/actions"
	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/ui/styles"
	"github.com/octop-dev/octop/wire"
)

// FormKeyMap is the keys every action form shares.
type FormKeyMap struct {
	Submit key.Binding // ctrl+s anywhere; enter on single-line steps
	Cancel key.Binding
	Next   key.Binding
	Prev   key.Binding
}

// DefaultFormKeyMap returns the forms' keys.
func DefaultFormKeyMap() FormKeyMap {
	return FormKeyMap{
		Submit: key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "submit")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Next:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous")),
	}
}

// hint renders bindings as "key action · key action".
func hint(bs ...key.Binding) string {
	parts := make([]string, 0, len(bs))
	for _, b := range bs {
		h := b.Help()
		parts = append(parts, h.Key+" "+h.Desc)
	}
	return strings.Join(parts, " · ")
}

// The launch form's fields, in focus order.
const (
	fieldAgent = iota
	fieldDescription
	fieldPrompt
	fieldCount
)

// agentItem is one agent in the picker.
type agentItem struct{ a wire.Agent }

func (i agentItem) Title() string       { return i.a.Name }
func (i agentItem) Description() string { return strings.Join(strings.Fields(i.a.Description), " ") }
func (i agentItem) FilterValue() string { return i.a.Name }

// agentsMsg is the reply to the form's GET /agent.
type agentsMsg struct {
	seq    int64
	agents []wire.Agent
	err    error
}

// launchedMsg is the reply to a launch.
type launchedMsg struct {
	seq     int64
	session wire.Session
	req     actions.LaunchRequest
	err     error
}

// launchForm is the `n` / `N` dialog: pick an agent, describe the task,
// write the prompt, and launch it as an async task.
type launchForm struct {
	seq    int64
	c      *client.Client
	st     *styles.Styles
	keys   FormKeyMap
	parent string // "" launches a new root
	title  string // the parent's title

	agents     list.Model
	agentsErr  string
	agentsWait bool
	desc       textinput.Model
	prompt     textarea.Model
	focus      int

	launching bool
	err       string
	width     int
	height    int // the screen's, to keep the form on it
}

func newLaunchForm(c *client.Client, st *styles.Styles, parent, parentTitle string, w, h int) (Dialog, tea.Cmd) {
	f := launchForm{
		seq: nextSeq(), c: c, st: st, keys: DefaultFormKeyMap(),
		parent: parent, title: parentTitle, agentsWait: true,
		width: dialogWidth(w, 84), height: h,
	}
	inner := f.width - 4

	d := list.NewDefaultDelegate()
	d.SetSpacing(0)
	d.Styles = pickerStyles(st)
	f.agents = list.New(nil, d, inner, 2)
	f.agents.SetShowTitle(false)
	f.agents.SetShowStatusBar(false)
	f.agents.SetShowHelp(false)
	f.agents.SetShowPagination(false)
	f.agents.SetFilteringEnabled(false)
	f.agents.DisableQuitKeybindings()

	f.desc = textinput.New()
	f.desc.Prompt = "› "
	f.desc.Placeholder = "a few words: what the task does"
	f.desc.CharLimit = 200
	f.desc.SetWidth(inner - 2)
	f.desc.SetVirtualCursor(true)
	f.desc.SetStyles(inputStyles(st))

	f.prompt = textarea.New()
	f.prompt.Placeholder = "the task's instructions (enter for a new line, paste works)"
	f.prompt.ShowLineNumbers = false
	f.prompt.SetWidth(inner)
	f.prompt.SetHeight(max(min(8, h-22), 3))
	f.prompt.SetVirtualCursor(true)
	f.prompt.SetStyles(areaStyles(st))

	seq, cl := f.seq, c
	load := func() tea.Msg {
		return withTimeout(func(ctx context.Context) tea.Msg {
			agents, err := cl.Agents(ctx)
			return agentsMsg{seq: seq, agents: agents, err: err}
		})
	}
	return f, load
}

// pickerStyles draws the agent list with the screen's colours; without
// colour the chosen agent keeps the default delegate's left bar, so it
// still shows.
func pickerStyles(st *styles.Styles) list.DefaultItemStyles {
	if !st.NoColor {
		return list.NewDefaultItemStyles(st.IsDark)
	}
	plain := lipgloss.NewStyle()
	chosen := plain.Border(lipgloss.NormalBorder(), false, false, false, true).PaddingLeft(1)
	return list.DefaultItemStyles{
		NormalTitle:   plain.PaddingLeft(2),
		NormalDesc:    plain.PaddingLeft(2),
		SelectedTitle: chosen.Bold(true),
		SelectedDesc:  chosen,
		DimmedTitle:   plain.PaddingLeft(2),
		DimmedDesc:    plain.PaddingLeft(2),
	}
}

func inputStyles(st *styles.Styles) textinput.Styles {
	if st.NoColor {
		return textinput.Styles{}
	}
	return textinput.DefaultStyles(st.IsDark)
}

func areaStyles(st *styles.Styles) textarea.Styles {
	if st.NoColor {
		return textarea.Styles{}
	}
	return textarea.DefaultStyles(st.IsDark)
}

func (f launchForm) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case agentsMsg:
		if msg.seq != f.seq {
			return f, nil
		}
		f.agentsWait = false
		if msg.err != nil {
			f.agentsErr = "cannot list the agents: " + errText(msg.err)
			return f, nil
		}
		usable := actions.TaskAgents(msg.agents)
		if len(usable) == 0 {
			f.agentsErr = "the server has no agent that can run as a task (mode subagent or all, not hidden)"
			return f, nil
		}
		items := make([]list.Item, len(usable))
		pick := 0
		for i, a := range usable {
			items[i] = agentItem{a}
			if a.Name == "general" {
				pick = i
			}
		}
		f.agents.SetItems(items)
		// Two lines an agent; on a short screen the list scrolls instead
		// of pushing the form off it.
		f.agents.SetHeight(max(min(2*len(items), 8, f.height-20), 2))
		f.agents.Select(pick)
		return f, nil
	case launchedMsg:
		if msg.seq != f.seq {
			return f, nil
		}
		f.launching = false
		if msg.err != nil {
			f.err = errText(msg.err)
			return f, nil
		}
		notice := fmt.Sprintf("launched task_id %s  @%s: %s", msg.session.ID, msg.req.Agent, msg.req.Description)
		return nil, tea.Batch(selectCmd(msg.session.ID), flashCmd(notice, false))
	case tea.KeyPressMsg:
		if f.launching {
			return f, nil // the reply closes the form; a second launch must not start
		}
		switch {
		case key.Matches(msg, f.keys.Cancel):
			return nil, nil
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
		if _, isKey := msg.(tea.KeyPressMsg); isKey {
			f.agents, cmd = f.agents.Update(msg)
		}
	case fieldDescription:
		f.desc, cmd = f.desc.Update(msg)
	case fieldPrompt:
		f.prompt, cmd = f.prompt.Update(msg)
	}
	return f, cmd
}

func (f launchForm) setFocus(i int) (Dialog, tea.Cmd) {
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

// submit checks the form and starts the launch. The actions package checks
// again (and the server's side); this is only to point at the empty field.
func (f launchForm) submit() (Dialog, tea.Cmd) {
	agent := ""
	if it, ok := f.agents.SelectedItem().(agentItem); ok {
		agent = it.a.Name
	}
	switch {
	case agent == "":
		f.err = "no agent to run the task; " + firstNonEmpty(f.agentsErr, "the agent list is still loading")
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
	req := actions.LaunchRequest{ParentID: f.parent, Agent: agent, Description: f.desc.Value(), Prompt: f.prompt.Value()}
	req.Description = strings.Join(strings.Fields(req.Description), " ")
	seq, c := f.seq, f.c
	return f, func() tea.Msg {
		return withTimeout(func(ctx context.Context) tea.Msg {
			s, err := actions.Launch(ctx, c, req)
			return launchedMsg{seq: seq, session: s, req: req, err: err}
		})
	}
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

func (f launchForm) View(w, h int) string {
	width := dialogWidth(w, 84)
	inner := width - 4
	title := "Launch a task under " + f.title
	if f.parent == "" {
		title = "Launch a task as a new root session"
	}
	label := func(i int, s string) string {
		if f.focus == i {
			return f.st.Focused.Render("▸ " + s)
		}
		return f.st.Label.Render("  " + s)
	}
	var b strings.Builder
	if f.parent != "" {
		b.WriteString(f.st.Dim.Render(ansi.Truncate("parent "+f.parent, inner, "…")) + "\n\n")
	}
	b.WriteString(label(fieldAgent, "Agent") + "\n")
	switch {
	case f.agentsWait:
		b.WriteString(f.st.Dim.Render("  loading agents…"))
	case f.agentsErr != "":
		b.WriteString(errorLine(f.st, inner, f.agentsErr))
	default:
		b.WriteString(f.agents.View())
	}
	b.WriteString("\n\n" + label(fieldDescription, "Description") + "\n")
	b.WriteString(f.desc.View())
	b.WriteString("\n\n" + label(fieldPrompt, "Prompt") + "\n")
	b.WriteString(f.prompt.View())
	if f.launching {
		b.WriteString("\n\n" + f.st.Busy.Render("launching…"))
	} else if f.err != "" {
		b.WriteString("\n\n" + errorLine(f.st, inner, f.err))
	}
	keys := hint(f.keys.Submit, f.keys.Next, f.keys.Cancel)
	if f.focus == fieldAgent {
		keys = "↑/↓ choose · enter next · " + keys
	} else if f.focus == fieldDescription {
		keys = "enter next · " + keys
	}
	return frame(f.st, width, title, b.String(), keys)
}
