// Package ui is octop's Bubble Tea screen. Its top level holds only the
// root Model (app.go), the layout (view.go), the message routing (update.go
// for keys, mouse and the clock; server.go for the server's data, which
// it also feeds to the watchdog; rooms.go for the reserved keys and the
// rooms' requests) and the screen's keys (keys.go); every view lives in a
// room of its own under ui/.
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
//	ui/room     what rooms and root exchange: the Dialog contract, FlashMsg,
//	            SelectMsg, Send (a request) and After (a timer)
//	ui/history  the background reads of every session's messages, as commands
//	ui/watch    the watchdog as the screen runs it: marks for the tree and
//	            detail, the header's notice, notifications, --exec hooks
//	            and --abort-on's aborts, as commands
//	ui/inflight the calls in flight: each request's call, cancel and reply
//	internal/shell  several servers: one root Model each, drawn as one tree
//	            of server groups under a bar (wraps the root, like replay)
//	ui/format   pure string helpers; ui/styles the one style set
//
// # Rules of the house
//
//   - No I/O in Update or View. A room never calls the server: it returns
//     a request (task.LaunchRequest, AbortRequest…) as a Cmd; the root runs
//     it on Options.Server (a task.Server: internal/task/live's, or a
//     test's) in a tea.Cmd with a context whose cancel inflight.List keeps,
//     and hands the reply (task.LaunchReply, …) back to the open dialog.
//   - Keys always answer. ctrl+c quits from anywhere; esc closes every
//     overlay (help included) at once, cancelling its request in flight.
//     A reply whose request was cancelled is dropped by its tag, and an
//     request of a dialog since closed by the dialog's generation. Inbox
//     answers are Detached: closing the inbox does not take them back.
//   - No package under ui/ imports client, internal/task/live,
//     internal/hook or net/http, even indirectly (TestRoomsReachNoNetwork).
//   - Data moves one way: server events come in as EventsMsg (a frame's
//     worth, gathered by feed.Batcher), wire.ConnState, wire.ResyncNeeded
//     and the tagged snapshot and health replies. Nothing changes the
//     model.State by hand to predict an action: the server's events do.
//   - Every wait goes through Options.Timer (a room's: room.After), never tea.Tick.
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
//  2. If it needs the server, add an XRequest and its XReply to internal/task
//     (and task.Server's method, which internal/task/live implements); the
//     room returns room.Send(XRequest{…}) and handles the reply in Update.
//  3. Give it a key in keys.go and an Action, and build it in Model.room.
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
// The watchdog (BenchmarkWatchdogBurst, the same burst with it off and
// on) looks again at each session a batch names: in a CPU profile of
// that burst it takes 23% of Update, about what applying the events
// takes (21%); its header count is kept as marks change, never counted
// per frame.
package ui
