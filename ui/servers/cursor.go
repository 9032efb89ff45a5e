package servers

import (
	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/ui"
)

// The one tree is every server's group line followed, unless the group
// is folded, by that server's own tree rows: line numbers below count
// down that list. The cursor is the selected server (sel) and either its
// group line (onGroup) or its own tree's cursor, so a server's events
// that reorder its rows keep the cursor on the same session, as one
// server's screen does.

// rowCount is how many of server i's tree rows show under its group.
func (m Model) rowCount(i int) int {
	if m.folded[i] {
		return 0
	}
	return len(m.screens[i].Tree().Rows())
}

// start is the line of server i's group.
func (m Model) start(i int) int {
	n := 0
	for j := range i {
		n += 1 + m.rowCount(j)
	}
	return n
}

// total is how many lines the one tree has.
func (m Model) total() int { return m.start(len(m.screens)) }

// cursorLine is the line the cursor is on.
func (m Model) cursorLine() int {
	if m.onGroup {
		return m.start(m.sel)
	}
	return m.start(m.sel) + 1 + m.screens[m.sel].Tree().Cursor()
}

// at is the server and tree row of line n; row is -1 on a group line,
// server is -1 past the end.
func (m Model) at(n int) (server, row int) {
	for i := range m.screens {
		if n == 0 {
			return i, -1
		}
		n--
		c := m.rowCount(i)
		if n < c {
			return i, n
		}
		n -= c
	}
	return -1, -1
}

// selectLine moves the cursor to line n (clamped): onto a group line, or
// onto a session, which that server's screen then selects, as if picked
// there (its follow stops, its detail shows the session).
func (m Model) selectLine(n int) (Model, tea.Cmd) {
	n = min(max(n, 0), max(m.total()-1, 0))
	s, r := m.at(n)
	if s < 0 {
		return m, nil
	}
	m.sel, m.onGroup = s, r < 0
	if r < 0 {
		return m, nil
	}
	return m.to(s, ui.SelectMsg{ID: m.screens[s].Tree().Rows()[r].ID})
}

// settle keeps the cursor on a line that exists (a server whose rows are
// folded or gone has only its group line) and in view.
func (m Model) settle() Model {
	m.sel = min(max(m.sel, 0), len(m.screens)-1)
	if m.rowCount(m.sel) == 0 {
		m.onGroup = true
	}
	h := m.paneHeight()
	c := m.cursorLine()
	if c < m.offset {
		m.offset = c
	}
	if h > 0 && c >= m.offset+h {
		m.offset = c - h + 1
	}
	m.offset = max(min(m.offset, m.total()-h), 0)
	return m
}

// paneHeight is the one tree's height: the selected screen's tree pane.
func (m Model) paneHeight() int {
	t, _, _, _ := m.screens[m.sel].Panes()
	return t.H
}
