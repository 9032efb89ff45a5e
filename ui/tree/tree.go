package tree

import (
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
	selected string // the selected session id; survives refreshes
	cursor   int
	offset   int

	width, height int
	focused       bool
	now           int64  // Unix ms, for elapsed times
	spin          string // the spinner frame busy rows show
	// runaway gives the watchdog's words for a session ("loop",
	// "loop stall"), "" for none; nil when no watchdog runs.
	runaway func(id string) string
	stale   bool // the server is out of reach: rows are drawn faint

	cache map[string]cachedRow

	// builtAt is the state and tree version the rows were built from; see
	// Sync.
	builtFor *model.State
	builtAt  uint64
}

// New returns an empty tree pane.
func New(s *styles.Styles) Model {
	return Model{
		keys:      DefaultKeyMap(),
		inks:      newInks(s),
		state:     model.New(),
		collapsed: map[string]bool{},
		focused:   true,
		cache:     map[string]cachedRow{},
	}
}

// KeyMap returns the pane's keys, for the footer's help.
func (m Model) KeyMap() KeyMap { return m.keys }

// SetStale says whether what the rows show may be out of date (the server
// is out of reach): they are drawn faint until it is back and re-read.
func (m *Model) SetStale(on bool) {
	if m.stale != on {
		m.stale = on
		m.cache = map[string]cachedRow{}
	}
}

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

// rowOf finds a session's row. It looks through the rows rather than
// keeping an index by id: at scale that index weighed more than the
// rows' own fields (docs/perf.md, scale), and a row is looked for once
// per rebuild or selection, not per frame.
func (m Model) rowOf(id string) (int, bool) {
	if id == "" {
		return 0, false
	}
	if m.cursor < len(m.rows) && m.rows[m.cursor].ID == id {
		return m.cursor, true
	}
	for i := range m.rows {
		if m.rows[i].ID == id {
			return i, true
		}
	}
	return 0, false
}

// Refresh rebuilds the rows from the state. Call it after the state or the
// collapsed set changed; it costs a walk of the tree, so the root calls it
// once per batch of events, never per frame.
func (m *Model) Refresh() {
	m.builtFor, m.builtAt = m.state, m.state.TreeVersion()
	expanded := map[string]bool{}
	// A walk with a stack of its own: a chain as deep as a hostile
	// server can send would overflow the Go stack a call per level.
	var stack []*model.Session
	for _, id := range m.state.Roots() {
		stack = append(stack[:0], m.state.Session(id))
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if s == nil || len(s.Children()) == 0 {
				continue
			}
			if !m.collapsed[s.ID] {
				expanded[s.ID] = true
			}
			stack = append(stack, s.Children()...)
		}
	}
	m.rows = model.FlattenView(m.state, model.View{Expanded: expanded, Filter: m.filter, Sort: m.sort, NowMS: m.now})
	if m.byDirectory {
		m.rows = groupByDirectory(m.state, m.rows)
	}
	if i, ok := m.rowOf(m.selected); ok {
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
