// Package tree is the session tree pane: the flattened parent/child tree,
// a cursor, and a viewport that renders only the rows it shows.
//
// # Cost
//
// Each row's string is cached by what it is drawn from (rowKey): the
// width, the session's own version (model.State.SessionVersion), the
// running count a folded row shows, the row's shape, the selection, and,
// for a running session only, the clock's second and the spinner frame. An
// event redraws the rows of the sessions it touched; a spinner step redraws
// the busy rows; an idle row is drawn once. TestCachedRowsMatchFreshOnes
// replays every recording and compares each cached frame with one drawn
// from scratch.
//
// BenchmarkRenderRow, ViewAfterEvent and ViewAfterTick (make bench) and
// BenchmarkSoak (make bench-soak) hold the pane to this; their figures are
// in docs/perf.md.
package tree
