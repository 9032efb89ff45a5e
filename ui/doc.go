// Package ui is octop's Bubble Tea screen: a header, the session tree, the
// selected session's detail and a help footer. One root Model owns them;
// the panes (ui/tree, ui/detail) are small value components with their own
// keys.go, and ui/styles holds the one style set.
//
// Data comes in as messages: EventsMsg (a frame's worth of stream events,
// gathered by a Batcher), client.ConnState, client.ResyncNeeded and the
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
// Whole-tree work (rows, counts, follow) runs once per batch in Update;
// View draws only the rows in the viewport and caches each by what it
// shows. See BenchmarkView.
package ui
