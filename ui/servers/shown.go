package servers

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/ui"
)

// shown is, per server, the rows of its own tree the one tree shows (in
// view, under an unfolded group) and the session the cursor is on there.
type shown struct {
	selected string
	ids      []string
}

// inView is what the one tree shows now of each server: the rows of the
// paneHeight lines from offset, and the cursor's session.
func (m Model) inView() []shown {
	out := make([]shown, len(m.screens))
	h := m.paneHeight()
	s, r := m.at(m.offset)
	for n := 0; s >= 0 && s < len(m.screens) && n < h; s, r = s+1, -1 {
		if r < 0 {
			n, r = n+1, 0 // its group line
		}
		rows := m.screens[s].Tree().Rows()
		for ; r < m.rowCount(s) && n < h; r, n = r+1, n+1 {
			out[s].ids = append(out[s].ids, rows[r].ID)
		}
	}
	if _, id := m.Selected(); id != "" {
		out[m.sel].selected = id
	}
	return out
}

// tellShown tells each server's screen which of its rows are shown, when
// that changed: its history reader reads those first and keeps them
// whole, not the rows its own tree pane would show.
func (m Model) tellShown() (Model, tea.Cmd) {
	now := m.inView()
	var cmds []tea.Cmd
	for i, s := range now {
		if i < len(m.told) && m.told[i].selected == s.selected && slices.Equal(m.told[i].ids, s.ids) {
			continue
		}
		var cmd tea.Cmd
		m, cmd = m.to(i, ui.ShownMsg{Selected: s.selected, IDs: s.ids})
		cmds = append(cmds, cmd)
	}
	m.told = now
	return m, tea.Batch(cmds...)
}
