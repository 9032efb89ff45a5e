package tree

// Cursor is the index of the selected row.
func (m Model) Cursor() int { return m.cursor }

// Line draws row i (0 <= i < len(Rows())) as View does, but selected
// only when asked, whatever the cursor: a screen that draws several
// trees as one (internal/servers) marks one cursor's row among all of them.
func (m Model) Line(i int, selected bool) string { return m.rowAs(i, selected) }

// Stale says the rows are drawn as out of date (see SetStale).
func (m Model) Stale() bool { return m.stale }
