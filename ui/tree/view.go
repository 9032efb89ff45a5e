package tree

import (
	"strings"

	"github.com/octop-dev/octop/model"
)

// View renders the rows in the viewport and nothing else, so a frame costs
// the same with ten sessions or ten thousand.
func (m Model) View() string { return strings.Join(m.Lines(), "\n") }

// Lines is View's lines, exactly height of them, each the width: the
// rows in view from their cache, then blank lines.
func (m Model) Lines() []string {
	if m.height <= 0 || m.width <= 0 {
		return nil
	}
	lines := make([]string, 0, m.height)
	end := min(m.offset+m.height, len(m.rows))
	for i := m.offset; i < end; i++ {
		lines = append(lines, m.row(i))
	}
	// Pad to the full height so the panes beside and below stay put.
	if len(lines) < m.height {
		blank := strings.Repeat(" ", m.width)
		for len(lines) < m.height {
			lines = append(lines, blank)
		}
	}
	return lines
}

// row renders row i, from the cache when nothing it depends on changed.
func (m Model) row(i int) string { return m.rowAs(i, i == m.cursor) }

// rowAs renders row i drawn selected or not, whatever the cursor.
func (m Model) rowAs(i int, selected bool) string {
	r := m.rows[i]
	c := m.state.Counts(r.ID)
	k := rowKey{
		width:    m.width,
		version:  m.state.SessionVersion(r.ID),
		below:    [2]int{c.RunningBelow, c.WaitingBelow},
		selected: selected,
		focused:  m.focused,
		project:  m.byDirectory,
	}
	kind := m.state.StateOf(r.ID).Kind
	if s := m.state.Session(r.ID); s != nil && (s.Running() || kind == model.KindBackground) {
		k.second = m.now / 1000 // its elapsed time counts
	} else {
		k.elapsed = m.state.Elapsed(r.ID, m.now) // a run's end may be a child's
	}
	if m.runaway != nil {
		k.runaway = m.runaway(r.ID)
	}
	if kind == model.KindRunning {
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
		stale:    m.stale,
	})
	k.row = r
	m.cache[r.ID] = cachedRow{key: k, s: s}
	return s
}

func (k rowKey) sameAs(o rowKey, r model.Row) bool {
	if k.width != o.width || k.version != o.version || k.below != o.below || k.second != o.second || k.elapsed != o.elapsed ||
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

// cachedRow is a rendered row and everything it was rendered from.
type cachedRow struct {
	key rowKey
	s   string
}

// rowKey is everything a row is drawn from. The session's own version
// covers its data; what other sessions add is the running and waiting
// counts a folded row shows, and the time its runs take from its
// children's (model.Run). Only a running session's elapsed time and countdown move with
// the clock, and only a busy one spins, so an idle row is drawn once.
type rowKey struct {
	width    int
	version  uint64 // model.State.SessionVersion
	below    [2]int // Counts.RunningBelow, WaitingBelow
	elapsed  int64  // model.State.Elapsed, for a session not running
	second   int64  // the clock's second, for a running session only
	spin     string // the spinner frame, for a busy session only
	selected bool
	focused  bool
	project  bool
	runaway  string    // the watchdog's marks
	row      model.Row // depth, guides, expansion: the shape of the line
}
