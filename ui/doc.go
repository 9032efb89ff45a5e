// Package ui is octop's Bubble Tea screen: a header, the session tree, the
// selected session's detail and a help footer. One root Model owns them;
// the panes (ui/tree, ui/detail) are small value components with their own
// keys.go, and ui/styles holds the one style set.
//
// Data comes in as messages: EventsMsg (a frame's worth of stream events,
// gathered by a Batcher), wire.ConnState, wire.ResyncNeeded and the
// replies of the Cmds the root starts (snapshots, health probes, each
// tagged so a stale reply is dropped). Update never does I/O.
//
// # Actions
//
// The reserved keys (n N r R x X o y i) all go through Model.startAction,
// which hands an ActionRequest to Options.Actions. The handler returns a
// Dialog (shown centred over the screen; it gets every key and every
// message the root does not know until its Update returns nil) and/or a
// Cmd. Replies come back as the handler's own messages, FlashMsg (a footer
// notice) or SelectMsg (select a session, now or once it arrives). With no
// handler the keys say "not available yet"; in demo mode, "demo is
// read-only".
//
// # Cost
//
// Whole-tree work runs once per batch in Update: the counts and follow's
// pick every batch, the rows only when the tree's shape changed (or a
// filter or grouping is on). View draws only the rows in the viewport and
// caches each by what it shows; an open dialog is spliced into the lines
// it covers. Measured (go test -run '^$' -bench . -count 5 ./ui/, 2 cores,
// medians): BenchmarkView 267 µs at 100 sessions, 296 µs at 10,000
// (1.11×); BenchmarkEventBurst, 1,000 updates at 10,000 sessions, 1.5 ms;
// a frame with the inbox open at 10,000 sessions, 1.4-2.4 ms.
package ui
