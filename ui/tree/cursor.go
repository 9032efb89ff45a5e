package tree

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/model"
)

// Select moves the cursor to a session, unfolding its ancestors so it shows.
// It reports whether the session is now visible.
func (m *Model) Select(id string) bool {
	if _, ok := m.rowOf(id); !ok {
		unfolded := false
		for s := m.state.Session(id); s != nil && s.ParentID != ""; s = m.state.Session(s.ParentID) {
			if m.collapsed[s.ParentID] {
				delete(m.collapsed, s.ParentID)
				unfolded = true
			}
		}
		if unfolded {
			m.Refresh()
		}
	}
	i, ok := m.rowOf(id)
	if !ok {
		return false
	}
	m.cursor = i
	m.remember()
	m.scrollToCursor()
	return true
}

// SelectIndex moves the cursor to a row index, clamped.
func (m *Model) SelectIndex(i int) {
	if len(m.rows) == 0 {
		return
	}
	m.cursor = min(max(i, 0), len(m.rows)-1)
	m.remember()
	m.scrollToCursor()
}

// Scroll moves the viewport by n rows and keeps the cursor inside it, the
// way a mouse wheel should.
func (m *Model) Scroll(n int) {
	m.offset = min(max(m.offset+n, 0), max(len(m.rows)-m.height, 0))
	if m.cursor < m.offset {
		m.SelectIndex(m.offset)
	} else if m.height > 0 && m.cursor >= m.offset+m.height {
		m.SelectIndex(m.offset + m.height - 1)
	}
}

// Collapsed reports whether the user folded a session.
func (m Model) Collapsed(id string) bool { return m.collapsed[id] }

// Update handles the tree's keys.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	switch {
	case key.Matches(k, m.keys.Up):
		m.SelectIndex(m.cursor - 1)
	case key.Matches(k, m.keys.Down):
		m.SelectIndex(m.cursor + 1)
	case key.Matches(k, m.keys.Top):
		m.SelectIndex(0)
	case key.Matches(k, m.keys.Bottom):
		m.SelectIndex(len(m.rows) - 1)
	case key.Matches(k, m.keys.PageUp):
		m.SelectIndex(m.cursor - max(m.height-1, 1))
	case key.Matches(k, m.keys.PageDown):
		m.SelectIndex(m.cursor + max(m.height-1, 1))
	case key.Matches(k, m.keys.Collapse):
		m.collapseOrParent()
	case key.Matches(k, m.keys.Expand):
		m.expandOrChild()
	case key.Matches(k, m.keys.Toggle):
		if r, ok := m.current(); ok && r.HasChildren {
			m.setCollapsed(r.ID, r.Expanded)
		}
	}
	return m, nil
}

// collapseOrParent folds the selected session, or, when there is nothing to
// fold, moves to its parent: left walks up the tree as in a file manager.
func (m *Model) collapseOrParent() {
	r, ok := m.current()
	if !ok {
		return
	}
	if r.HasChildren && r.Expanded {
		m.setCollapsed(r.ID, true)
		return
	}
	if s := m.state.Session(r.ID); s != nil && s.ParentID != "" {
		m.Select(s.ParentID)
	}
}

// expandOrChild unfolds the selected session, or steps into its first child
// when it is already open.
func (m *Model) expandOrChild() {
	r, ok := m.current()
	if !ok || !r.HasChildren {
		return
	}
	if !r.Expanded {
		m.setCollapsed(r.ID, false)
		return
	}
	m.SelectIndex(m.cursor + 1)
}

func (m *Model) setCollapsed(id string, c bool) {
	if c {
		m.collapsed[id] = true
	} else {
		delete(m.collapsed, id)
	}
	m.Refresh()
}

func (m Model) current() (model.Row, bool) {
	if m.cursor < len(m.rows) {
		return m.rows[m.cursor], true
	}
	return model.Row{}, false
}

// remember records the selected id so a refresh can find the row again.
func (m *Model) remember() {
	if m.cursor < len(m.rows) {
		m.selected = m.rows[m.cursor].ID
	}
}

func (m *Model) scrollToCursor() {
	if m.height <= 0 {
		return
	}
	if m.cursor < m.offset {
		m.offset = m.cursor
	}
	if m.cursor >= m.offset+m.height {
		m.offset = m.cursor - m.height + 1
	}
	m.offset = min(m.offset, max(len(m.rows)-m.height, 0))
	m.offset = max(m.offset, 0)
}
