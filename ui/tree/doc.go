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
// Measured on 23 November 2026, 2 cores shared with other work (load
// average 20-30, so times vary 2-5x between passes; allocations do not),
// before (c9a9eb6, rows cached by the state's global version) and after,
// three interleaved passes each:
//
//	go test -run '^$' -bench 'RenderRow|ViewAfter' -benchmem -benchtime 1000x ./ui/tree/
//
//	                     before                      after
//	RenderRow            9-109 µs, 16 allocs         37-74 µs, 16 allocs (unchanged code)
//	ViewAfterEvent       1.6-4.3 ms, 840 allocs      0.30-0.67 ms, 34 allocs, 148 KB → 35 KB
//	ViewAfterTick        0.9-2.1 ms, 734 allocs      1.0-2.7 ms, 723 allocs (the 45 busy rows spin)
//
// BenchmarkSoak (make bench-soak) replays 30 minutes of a steady fan-out
// workload: 2.57 MB live heap at minute 5, 2.58 MB at minute 30 (+0.5%).
package tree
