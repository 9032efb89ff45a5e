package ui

import (
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/history"
	"github.com/octop-dev/octop/ui/room"
)

// ShownMsg says which of the screen's rows a screen around it shows,
// when it draws several servers' trees as one (ui/servers): the history
// reader reads those first and keeps them whole, in place of what the
// screen's own tree pane would show. Selected is the session the cursor
// is on there, "" when the cursor is on another server or a group line.
type ShownMsg struct {
	Selected string
	IDs      []string
}

// shown is what a ShownMsg said, while one has.
type shown struct {
	on       bool
	selected string
	ids      []string
}

// readsHistory says the screen reads histories: it has a server, or a
// recording that holds them (a recording answers no reads beyond its
// snapshot otherwise).
func (m Model) readsHistory() bool {
	return m.opts.Server != nil && (!m.opts.Demo || m.opts.RecordedHistory)
}

// wanted is what the screen shows now, for the history reader: the
// selection, what the open room asks for (room.Wanter), the rows in view
// (or those a screen around this one shows), and whether the sort or
// filter needs every history.
func (m Model) wanted() history.Wanted {
	w := history.Wanted{Selected: m.tree.Selected(), Shown: m.tree.Wanted(),
		All: m.tree.Sort().NeedsHistory() || model.ParseFilter(m.tree.Filter()).NeedsHistory()}
	if m.shown.on {
		w.Selected, w.Shown = m.shown.selected, m.shown.ids
	}
	if r, ok := m.dialog.(room.Wanter); ok {
		w.Asked = r.Wants()
	}
	return w
}

// sweep seals, once a second, what the screen no longer shows (see
// history.Reader.Sweep).
func (m *Model) sweep() {
	if m.readsHistory() {
		m.hist.Sweep(m.state)
	}
}
