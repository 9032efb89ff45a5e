package tree

// Cursor is the index of the selected row.
func (m Model) Cursor() int { return m.cursor }

// Line draws row i (0 <= i < len(Rows())) as View does, but selected
// only when asked, whatever the cursor: a screen that draws several
// trees as one (internal/servers) marks one cursor's row among all of them.
func (m Model) Line(i int, selected bool) string { return m.rowAs(i, selected) }

// Stale says the rows are drawn as out of date (see SetStale).
func (m Model) Stale() bool { return m.stale }

// Wanted is the selected session, then the sessions of the rows in view,
// top to bottom: what the screen shows first, so what its history reader
// reads first.
func (m Model) Wanted() []string {
	start := min(m.offset, len(m.rows))
	end := min(start+m.height, len(m.rows))
	ids := make([]string, 0, end-start+1)
	if sel := m.Selected(); sel != "" {
		ids = append(ids, sel)
	}
	for i := start; i < end; i++ {
		ids = append(ids, m.rows[i].ID)
	}
	return ids
}
