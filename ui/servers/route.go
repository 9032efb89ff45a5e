package servers

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/ui"
)

// key moves the cursor through the one tree, folds a group, or jumps to
// a server's group ([ ] 1-9); every other key goes to the selected
// server's screen, so an action reaches the server that holds the
// session. While that screen takes text (a form, the filter) or shows a
// room, every key is its.
func (m Model) key(k tea.KeyPressMsg) (Model, tea.Cmd) {
	owner := m.screens[m.sel]
	if owner.Typing() {
		return m.toOwner(k)
	}
	n := len(m.screens)
	switch {
	case key.Matches(k, m.keys.Prev):
		return m.selectLine(m.start((m.sel + n - 1) % n))
	case key.Matches(k, m.keys.Next):
		return m.selectLine(m.start((m.sel + 1) % n))
	case key.Matches(k, m.keys.Pick):
		if i := int(k.Code - '1'); i >= 0 && i < n {
			return m.selectLine(m.start(i))
		}
		return m, nil
	case key.Matches(k, m.keys.Screen.Sort):
		return m.all(k) // one order for every server's rows
	}
	if _, _, _, treeKeys := owner.Panes(); treeKeys {
		if next, cmd, ok := m.move(k); ok {
			return next, cmd
		}
	}
	if m.onGroup && m.needsSession(k) {
		return m.to(m.sel, ui.FlashMsg{Text: "select a session of " + hostOf(owner.Summary().ServerURL) + " first"})
	}
	return m.toOwner(k)
}

// move handles the tree's keys on the one tree: up and down cross from
// one server's rows into the next's; left, right and enter fold a group
// on its line, and left on a root that has nothing to fold goes up to
// its server's line. ok is false for a key it leaves to the screen.
func (m Model) move(k tea.KeyPressMsg) (_ Model, _ tea.Cmd, ok bool) {
	t := m.keys.Tree
	c, page := m.cursorLine(), max(m.paneHeight()-1, 1)
	var next Model
	var cmd tea.Cmd
	switch {
	case key.Matches(k, t.Up):
		next, cmd = m.selectLine(c - 1)
	case key.Matches(k, t.Down):
		next, cmd = m.selectLine(c + 1)
	case key.Matches(k, t.Top):
		next, cmd = m.selectLine(0)
	case key.Matches(k, t.Bottom):
		next, cmd = m.selectLine(m.total() - 1)
	case key.Matches(k, t.PageUp):
		next, cmd = m.selectLine(c - page)
	case key.Matches(k, t.PageDown):
		next, cmd = m.selectLine(c + page)
	case m.onGroup && key.Matches(k, t.Collapse):
		next = m.fold(true)
	case m.onGroup && key.Matches(k, t.Expand):
		if !m.folded[m.sel] {
			next, cmd = m.selectLine(c + 1)
		} else {
			next = m.fold(false)
		}
	case m.onGroup && key.Matches(k, t.Toggle):
		next = m.fold(!m.folded[m.sel])
	case key.Matches(k, t.Collapse) && m.atRootEdge():
		next, cmd = m.selectLine(m.start(m.sel))
	default:
		return m, nil, false
	}
	return next, cmd, true
}

// fold folds or unfolds the selected server's group.
func (m Model) fold(on bool) Model {
	f := make(map[int]bool, len(m.folded)+1)
	for i, v := range m.folded {
		f[i] = v
	}
	f[m.sel] = on
	m.folded = f
	return m
}

// atRootEdge says the cursor is on a root that left would not fold.
func (m Model) atRootEdge() bool {
	t := m.screens[m.sel].Tree()
	rows := t.Rows()
	if m.onGroup || t.Cursor() >= len(rows) {
		return false
	}
	r := rows[t.Cursor()]
	return r.Depth == 0 && (!r.HasChildren || !r.Expanded)
}

// needsSession says k is an action on the selected session, which a
// group line has none of: on it those keys say so rather than act on a
// session the cursor is not on.
func (m Model) needsSession(k tea.KeyPressMsg) bool {
	s := m.keys.Screen
	// tab too: a group line's detail is the server's, which has nothing
	// to scroll, and the screen's own would take the keys unseen.
	for _, b := range []key.Binding{s.Launch, s.Resume, s.Abort, s.AbortTree, s.Open, s.CopyID, s.Transcript, s.Diff, s.Timeline, s.Tab} {
		if key.Matches(k, b) {
			return true
		}
	}
	return false
}

// toOwner hands k to the selected server's screen. A filter typed there
// filters every server's rows; a key that moved its cursor (follow)
// leaves the group line for the session it picked.
func (m Model) toOwner(k tea.KeyPressMsg) (Model, tea.Cmd) {
	before := m.screens[m.sel].Selected()
	m, cmd := m.to(m.sel, k)
	owner := m.screens[m.sel]
	if owner.Selected() != before {
		m.onGroup = false
	}
	f := owner.Tree().Filter()
	screens := append([]ui.Model(nil), m.screens...)
	for i := range screens {
		if screens[i].Tree().Filter() != f {
			screens[i].SetFilter(f)
		}
	}
	m.screens = screens
	return m, cmd
}

// click selects the line under the pointer in the one tree; anywhere
// else it goes to the selected server's screen, below the bar.
func (m Model) click(msg tea.MouseClickMsg) (Model, tea.Cmd) {
	p := msg.Mouse()
	p.Y -= barHeight
	t, _, room, _ := m.screens[m.sel].Panes()
	if room || p.Button != tea.MouseLeft || !t.Contains(p.X, p.Y) {
		return m.to(m.sel, tea.MouseClickMsg(p))
	}
	if n := m.offset + p.Y - t.Y; n < m.total() {
		return m.selectLine(n)
	}
	return m, nil
}

// wheel moves the cursor three lines in the one tree; elsewhere it
// scrolls what the selected server's screen has under the pointer.
func (m Model) wheel(msg tea.MouseWheelMsg) (Model, tea.Cmd) {
	p := msg.Mouse()
	p.Y -= barHeight
	t, _, room, _ := m.screens[m.sel].Panes()
	if room || !t.Contains(p.X, p.Y) {
		return m.to(m.sel, tea.MouseWheelMsg(p))
	}
	switch p.Button {
	case tea.MouseWheelUp:
		return m.selectLine(m.cursorLine() - 3)
	case tea.MouseWheelDown:
		return m.selectLine(m.cursorLine() + 3)
	}
	return m, nil
}
