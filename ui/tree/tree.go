// Package tree is the session tree pane: the flattened parent/child tree,
// a cursor, and a viewport that renders only the rows it shows.
package tree

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

// Model is the tree pane. It reads the shared *model.State but never
// changes it; what it owns is the view of it: which sessions are collapsed,
// the filter, the cursor and the scroll offset.
type Model struct {
	keys  KeyMap
	inks  inks
	state *model.State

	// collapsed holds the sessions the user folded. Everything else is
	// expanded, so new children show up without anyone asking.
	collapsed map[string]bool
	filter    string
	sort      model.SortKey
	// byDirectory groups the roots by project directory (--all-projects).
	byDirectory bool

	rows     []model.Row
	index    map[string]int // row index by session id
	selected string         // the selected session id; survives refreshes
	cursor   int
	offset   int

	width, height int
	focused       bool
	now           int64  // Unix ms, for elapsed times
	spin          string // the spinner frame busy rows show
	// runaway gives the watchdog's words for a session ("loop",
	// "loop stall"), "" for none; nil when no watchdog runs.
	runaway func(id string) string

	cache map[string]cachedRow

	// builtAt is the state and tree version the rows were built from; see
	// Sync.
	builtFor *model.State
	builtAt  uint64
}

// cachedRow is a rendered row and everything it was rendered from.
type cachedRow struct {
	key rowKey
	s   string
}

// rowKey is everything a row is drawn from. The session's own version
// covers its data; what other sessions add is the running count a folded
// row shows. Only a running session's elapsed time and countdown move with
// the clock, and only a busy one spins, so an idle row is drawn once.
type rowKey struct {
	width    int
	version  uint64 // model.State.SessionVersion
	below    int    // Counts.RunningBelow
	second   int64  // the clock's second, for a running session only
	spin     string // the spinner frame, for a busy session only
	selected bool
	focused  bool
	project  bool
	runaway  string    // the watchdog's marks
	row      model.Row // depth, guides, expansion: the shape of the line
}

// New returns an empty tree pane.
func New(s *styles.Styles) Model {
	return Model{
		keys:      DefaultKeyMap(),
		inks:      newInks(s),
		state:     model.New(),
		collapsed: map[string]bool{},
		index:     map[string]int{},
		focused:   true,
		cache:     map[string]cachedRow{},
	}
}

// KeyMap returns the pane's keys, for the footer's help.
func (m Model) KeyMap() KeyMap { return m.keys }

// SetStyles swaps the styles, e.g. once the terminal's background is known.
func (m *Model) SetStyles(s *styles.Styles) {
	m.inks = newInks(s)
	m.cache = map[string]cachedRow{}
}

// SetSize sets the pane's size in cells.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = max(width, 0), max(height, 0)
	m.scrollToCursor()
}

// Width is the pane's width in cells.
func (m Model) Width() int { return m.width }

// Height is the pane's height in rows.
func (m Model) Height() int { return m.height }

// SetFocused says whether keys go to this pane.
func (m *Model) SetFocused(f bool) { m.focused = f }

// SetClock sets the time elapsed columns count to and the spinner frame.
func (m *Model) SetClock(nowMS int64, spin string) {
	m.now, m.spin = nowMS, spin
}

// SetRunaway sets where rows read the watchdog's marks from: a word per
// mark, "" for a session with none.
func (m *Model) SetRunaway(f func(id string) string) { m.runaway = f }

// SetState points the pane at a (new) state and rebuilds its rows. The
// selection and collapsed set carry over, which is what keeps them across a
// resync.
func (m *Model) SetState(s *model.State) {
	m.state = s
	m.Refresh()
}

// SetFilter filters the rows to matching sessions and their ancestors.
func (m *Model) SetFilter(f string) {
	m.filter = f
	m.Refresh()
}

// SetGroupByDirectory keeps the roots of each project directory together,
// for a server watched across projects.
func (m *Model) SetGroupByDirectory(on bool) {
	m.byDirectory = on
	m.Refresh()
}

// groupByDirectory reorders rows so each directory's roots (with their
// subtrees) sit together. Groups keep the order of their newest root, and
// roots keep theirs within a group.
func groupByDirectory(st *model.State, rows []model.Row) []model.Row {
	var order []string
	blocks := map[string][]model.Row{}
	dir := ""
	for _, r := range rows {
		if r.Depth == 0 {
			dir = ""
			if s := st.Session(r.ID); s != nil {
				dir = s.Directory
			}
			if _, ok := blocks[dir]; !ok {
				order = append(order, dir)
			}
		}
		blocks[dir] = append(blocks[dir], r)
	}
	out := make([]model.Row, 0, len(rows))
	for _, d := range order {
		out = append(out, blocks[d]...)
	}
	return out
}

// SetSort orders siblings by k and rebuilds the rows.
func (m *Model) SetSort(k model.SortKey) {
	m.sort = k
	m.Refresh()
}

// Sort is the current sort key.
func (m Model) Sort() model.SortKey { return m.sort }

// Filter is the current filter text.
func (m Model) Filter() string { return m.filter }

// Rows are the visible rows, top to bottom.
func (m Model) Rows() []model.Row { return m.rows }

// Selected is the selected session's id, or "" when the tree is empty.
func (m Model) Selected() string {
	if m.cursor < len(m.rows) {
		return m.rows[m.cursor].ID
	}
	return ""
}

// Offset is the index of the first row shown.
func (m Model) Offset() int { return m.offset }

// Sync rebuilds the rows after the state changed, unless nothing they
// are made of did: without a filter or grouping, rows depend only on the
// tree's shape and the folds (which rebuild at once), so a burst of tool
// updates costs no walk over the whole tree.
func (m *Model) Sync() {
	if m.filter == "" && m.sort == model.SortNewest && !m.byDirectory && m.builtFor == m.state && m.builtAt == m.state.TreeVersion() {
		return
	}
	m.Refresh()
}

// Refresh rebuilds the rows from the state. Call it after the state or the
// collapsed set changed; it costs a walk of the tree, so the root calls it
// once per batch of events, never per frame.
func (m *Model) Refresh() {
	m.builtFor, m.builtAt = m.state, m.state.TreeVersion()
	expanded := map[string]bool{}
	var walk func(id string)
	walk = func(id string) {
		s := m.state.Session(id)
		if s == nil || len(s.Children) == 0 {
			return
		}
		if !m.collapsed[id] {
			expanded[id] = true
		}
		for _, c := range s.Children {
			walk(c)
		}
	}
	for _, id := range m.state.Roots() {
		walk(id)
	}
	m.rows = model.FlattenView(m.state, model.View{Expanded: expanded, Filter: m.filter, Sort: m.sort, NowMS: m.now})
	if m.byDirectory {
		m.rows = groupByDirectory(m.state, m.rows)
	}
	clear(m.index)
	for i, r := range m.rows {
		m.index[r.ID] = i
	}
	if i, ok := m.index[m.selected]; ok {
		m.cursor = i
	} else {
		// The selected session is gone (or filtered out): stay at the same
		// height on screen rather than jumping to the top.
		m.cursor = min(m.cursor, max(len(m.rows)-1, 0))
	}
	m.remember()
	m.scrollToCursor()
	if len(m.cache) > 4*max(m.height, 64) {
		m.cache = map[string]cachedRow{}
	}
}

// Select moves the cursor to a session, unfolding its ancestors so it shows.
// It reports whether the session is now visible.
func (m *Model) Select(id string) bool {
	if _, ok := m.index[id]; !ok {
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
	i, ok := m.index[id]
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

// View renders the rows in the viewport and nothing else, so a frame costs
// the same with ten sessions or ten thousand.
func (m Model) View() string {
	if m.height <= 0 || m.width <= 0 {
		return ""
	}
	var b strings.Builder
	end := min(m.offset+m.height, len(m.rows))
	for i := m.offset; i < end; i++ {
		if i > m.offset {
			b.WriteByte('\n')
		}
		b.WriteString(m.row(i))
	}
	// Pad to the full height so the panes beside and below stay put.
	blank := strings.Repeat(" ", m.width)
	for n := max(end-m.offset, 0); n < m.height; n++ {
		if n > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(blank)
	}
	return b.String()
}

// row renders row i, from the cache when nothing it depends on changed.
func (m Model) row(i int) string {
	r := m.rows[i]
	k := rowKey{
		width:    m.width,
		version:  m.state.SessionVersion(r.ID),
		below:    m.state.Counts(r.ID).RunningBelow,
		selected: i == m.cursor,
		focused:  m.focused,
		project:  m.byDirectory,
	}
	if s := m.state.Session(r.ID); s != nil && s.Running() {
		k.second = m.now / 1000
	}
	if m.runaway != nil {
		k.runaway = m.runaway(r.ID)
	}
	if m.state.StateOf(r.ID).Kind == model.KindRunning {
		k.spin = m.spin
	}
	if c, ok := m.cache[r.ID]; ok && c.key.sameAs(k, r) {
		return c.s
	}
	s := renderRow(m.state, r, rowOpts{
		width:    m.width,
		now:      m.now,
		spin:     m.spin,
		selected: k.selected,
		focused:  m.focused,
		inks:     m.inks,
		project:  m.byDirectory,
		runaway:  k.runaway,
	})
	k.row = r
	m.cache[r.ID] = cachedRow{key: k, s: s}
	return s
}

func (k rowKey) sameAs(o rowKey, r model.Row) bool {
	if k.width != o.width || k.version != o.version || k.below != o.below || k.second != o.second ||
		k.spin != o.spin || k.selected != o.selected || k.focused != o.focused || k.project != o.project ||
		k.runaway != o.runaway {
		return false
	}
	a := k.row
	if a.Depth != r.Depth || a.HasChildren != r.HasChildren || a.Expanded != r.Expanded ||
		a.Last != r.Last || a.Match != r.Match || len(a.Guides) != len(r.Guides) {
		return false
	}
	for i := range a.Guides {
		if a.Guides[i] != r.Guides[i] {
			return false
		}
	}
	return true
}
