package dialog

import (
	"charm.land/bubbles/v2/list"
	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/styles"
)

// agentItem is one agent in a picker; the zero agent stands for "the
// session's own agent" where a picker offers that.
type agentItem struct {
	a     wire.Agent
	blank string // the title of the zero agent
}

func (i agentItem) Title() string {
	switch {
	case i.a.Name == "":
		return i.blank
	case i.a.Mode == "primary":
		return format.OneLine(i.a.Name) + " (primary)"
	}
	return format.OneLine(i.a.Name)
}
func (i agentItem) Description() string { return format.OneLine(i.a.Description) }
func (i agentItem) FilterValue() string { return i.a.Name }

// TaskAgent says whether the server runs agent a as a task, in a child
// session: mode subagent or all, not hidden.
func TaskAgent(a wire.Agent) bool { return (a.Mode == "subagent" || a.Mode == "all") && !a.Hidden }

// RootAgent says whether the server runs a in a root session: any agent
// that is not hidden, primary ones (build, plan) included.
func RootAgent(a wire.Agent) bool { return !a.Hidden }

// picker is the agent list of the launch and resume forms: loading until
// the server's agents come, then the ones it accepts for the action.
type picker struct {
	list    list.Model
	wait    bool
	err     string
	accepts func(wire.Agent) bool
	blank   string // when set, a first item keeps the session's own agent
}

func newPicker(st *styles.Styles, width int, accepts func(wire.Agent) bool, blank string) picker {
	d := list.NewDefaultDelegate()
	d.SetSpacing(0)
	d.Styles = PickerStyles(st)
	l := list.New(nil, d, width, 2)
	l.SetShowTitle(false)
	l.SetShowStatusBar(false)
	l.SetShowHelp(false)
	l.SetShowPagination(false)
	l.SetFilteringEnabled(false)
	l.DisableQuitKeybindings()
	if st.NoColor {
		l.Styles = list.Styles{}
	}
	return picker{list: l, wait: true, accepts: accepts, blank: blank}
}

// set fills the picker from the server's answer; prefer is selected when
// offered. room is the most lines the list may take.
func (p picker) set(msg task.AgentsReply, prefer string, room int) picker {
	p.wait = false
	if msg.Err != nil {
		p.err = "cannot list the agents: " + ErrText(msg.Err)
		return p
	}
	var items []list.Item
	if p.blank != "" {
		items = append(items, agentItem{blank: p.blank})
	}
	pick := 0
	for _, a := range msg.Agents {
		if p.accepts(a) {
			if a.Name == prefer {
				pick = len(items)
			}
			items = append(items, agentItem{a: a})
		}
	}
	if len(items) == 0 {
		p.err = "the server has no agent that can run as a task (mode subagent or all, not hidden)"
		return p
	}
	p.list.SetItems(items)
	// Two lines an agent; on a short screen the list scrolls instead of
	// pushing the form off it.
	p.list.SetHeight(max(min(2*len(items), 8, room), 2))
	p.list.Select(pick)
	return p
}

// choose selects the agent called name, when the list offers it.
func (p picker) choose(name string) picker {
	for i, it := range p.list.Items() {
		if a, ok := it.(agentItem); ok && a.a.Name == name {
			p.list.Select(i)
		}
	}
	return p
}

// selected is the chosen agent's name ("" for the session's own) and
// whether one is chosen at all.
func (p picker) selected() (string, bool) {
	it, ok := p.list.SelectedItem().(agentItem)
	return it.a.Name, ok
}

func (p picker) update(msg tea.Msg) (picker, tea.Cmd) {
	var cmd tea.Cmd
	if _, isKey := msg.(tea.KeyPressMsg); isKey {
		p.list, cmd = p.list.Update(msg)
	}
	return p, cmd
}

func (p picker) view(st *styles.Styles, inner int) string {
	switch {
	case p.wait:
		return st.Dim.Render("  loading agents…")
	case p.err != "":
		return ErrorLine(st, inner, p.err)
	}
	return p.list.View()
}
