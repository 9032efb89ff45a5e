// Package ui is octop's Bubble Tea screen. Its top level holds only the
// root Model (app.go), the layout (view.go), the message routing (update.go
// for keys, mouse and the clock; server.go for the server's data, which
// it also feeds to the watchdog; live.go for the reserved keys;
// requests.go for the rooms' requests) and the screen's keys (keys.go);
// every view lives in a room of its own under ui/.
//
// # Rooms
//
//	ui/tree     the session tree pane: rows, folds, filter, selection
//	ui/detail   the selected session's detail pane
//	ui/header   the two header lines (connection, counts, selection)
//	ui/footer   the last lines: the filter typed, a notice, or the help
//	ui/dialog   the forms and confirmations: launch (n N), resume (r),
//	            wait for a busy session, resume by task_id (R), abort (x X);
//	            frame.go is the box every overlay is drawn in
//	ui/inbox    the pending permissions and questions (i)
//	ui/result   one session's outcome (o), markdown rendered
//	ui/request   what rooms and root exchange: the Dialog contract,
//	            requests, their replies, FlashMsg and SelectMsg
//	ui/history  the background reads of every session's messages, as commands
//	ui/watch    the watchdog as the screen runs it: marks for the tree and
//	            detail, the header's notice, notifications, --exec hooks
//	            and --abort-on's aborts, as commands
//	ui/calls    Ops, the one interface of server operations, and the
//	            calls in flight: each request's call, its cancel, its reply
//	internal/servers  several servers: one root Model each, drawn as one tree
//	            of server groups under a bar (wraps the root, like replay)
//	ui/format   pure string helpers; ui/styles the one style set
//
// # Rules of the house
//
//   - No I/O in Update or View. A room never calls the server: it returns
//     an request (task.LaunchRequest, AbortRequest, AnswerPermissionRequest…)
//     as a Cmd. The root turns each request into a call on Options.Ops
//     (task.Server, the one interface of server operations; package ops
//     implements it over the client, tests use a fake), run in a tea.Cmd
//     with a context whose cancel inflight.List keeps, and hands the reply
//     (task.LaunchReply, …) back to the open dialog.
//   - Keys always answer. ctrl+c quits from anywhere; esc closes every
//     overlay (help included) at once, cancelling its request in flight.
//     A reply whose request was cancelled is dropped by its tag, and an
//     request of a dialog since closed by the dialog's generation. Inbox
//     answers are Detached: closing the inbox does not take them back.
//   - No package under ui/ imports client, actions, ops or net/http, even
//     indirectly (TestRoomsReachNoNetwork).
//   - Data moves one way: server events come in as EventsMsg (a frame's
//     worth, gathered by feed.Batcher), wire.ConnState, wire.ResyncNeeded
//     and the tagged snapshot and health replies. Nothing changes the
//     model.State by hand to predict an action: the server's events do.
//   - Every room: a package with a doc comment saying what it owns, a
//     keys.go (KeyMap, DefaultKeyMap, ShortHelp, FullHelp) when it takes
//     keys, goldens in its own testdata/, a View for NO_COLOR with no
//     colour escape.
//
// # Adding a room (a transcript, a diff, a timeline…)
//
//  1. Make ui/<room> with New(st *styles.Styles, …) (Model, tea.Cmd),
//     Update(tea.Msg) (room.Dialog, tea.Cmd) returning nil to close, and
//     View(w, h int) string; draw it in dialog.Frame if it is an overlay.
//  2. If it needs the server, add an request and its reply to ui/request, a
//     method to task.Server, a case to calls.call, and the method to package
//     ops. The room returns room.Send(YourRequest{…}) and handles the
//     reply in Update.
//  3. Give it a key in keys.go and an Action, and build it in Model.room.
//
// # Cost
//
// Whole-tree work runs once per batch in Update: the counts and follow's
// pick every batch, the rows only when the tree's shape changed (or a
// filter or grouping is on). View draws only the rows in the viewport and
// caches each by what it shows; an open dialog is spliced into the lines
// it covers (BenchmarkView, EventBurst; figures in docs/perf.md).
// The watchdog (BenchmarkWatchdogBurst, the same burst with it off and
// on) looks again at each session a batch names; its header count is kept as marks change, never counted
// per frame.
package ui
