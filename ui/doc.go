// Package ui is octop's Bubble Tea screen. Its top level holds only the
// root Model (app.go), the layout and the help's keys (view.go), the
// message routing (update.go for keys, mouse and the clock; server.go for
// the server's data, taken in through the intake `octop watch` shares and
// fed to the watchdog; shown.go for what the history reader is told is
// on screen), and the rooms the reserved keys open and the requests they
// send (rooms.go); every view lives in a room of its own under ui/.
//
// # Rooms
//
//	ui/tree       the session tree pane: rows, folds, filter, selection
//	ui/detail     the selected session's detail pane
//	ui/header     the two header lines (connection, counts, selection)
//	ui/footer     the last lines: the filter typed, a notice, or the help
//	ui/dialog     the forms and confirmations: launch (n N), resume (r),
//	              wait for a busy session, resume by task_id (R), steer (m),
//	              retry (a: the launch form, filled), abort (x X);
//	              frame.go is the box every overlay is drawn in
//	ui/inbox      the pending permissions and questions (i)
//	ui/result     one session's outcome (o), markdown rendered
//	ui/transcript every message of one session, live (t)
//	ui/diff       the files a session changed and their diffs (d)
//	ui/timeline   the selected subtree as a Gantt chart (T)
//	ui/usage      what the selected subtree used ($)
//	ui/markdown   an agent's markdown for a terminal width
//
// And what the rooms and the root share:
//
//	ui/keymap     the screen's keys and the Actions its reserved keys ask for
//	ui/room       the contract: Dialog, Observer, FlashMsg, SelectMsg,
//	              Send, which hands the root a task.Request, and After, a timer
//	ui/inflight   the requests under way: each one's cancel and its
//	              tagged reply; the root's own reads (snapshot, health)
//	ui/history    the background reads of sessions' messages: in view at
//	              once, the rest at --history-rate; out of view, sealed
//	ui/notices    the watchdog as the screen runs it: marks for the tree
//	              and detail, the header's notice, notifications, the
//	              --exec hook (a func the command line passes in) and
//	              --abort-on's aborts, as commands
//	ui/format     pure string helpers; ui/styles the one style set
//	ui/servers    what wraps the root: several servers under one bar,
//	              and a replay's keys
//
// # Rules of the house
//
//   - No I/O in Update or View. A room never calls the server: it returns
//     a request (task.LaunchRequest, task.AbortRequest,
//     task.AnswerPermissionRequest…) through room.Send. The root runs it on
//     Options.Server (a task.Server: the live one over a running server,
//     a recording's over a replay, tests use a fake) in a
//     tea.Cmd whose cancel inflight.List keeps, and hands the reply
//     (task.LaunchReply, …) back to the open room.
//   - Keys always answer. ctrl+c quits from anywhere; esc closes every
//     overlay (help included) at once, cancelling its request in flight.
//     A reply whose request was cancelled is dropped by its tag, and a
//     request of a dialog since closed by the dialog's generation. Inbox
//     answers are Detached: closing the inbox does not take them back.
//   - No package under ui/ reaches client, net/http, the live server's
//     operations or the --exec hook, even indirectly, nor imports os/exec
//     (TestRoomsReachNoNetwork).
//   - Data moves one way: server events come in as EventsMsg (a frame's
//     worth, gathered by feed.Batcher), wire.ConnState, wire.ResyncNeeded
//     and the tagged snapshot and health replies. Nothing changes the
//     model.State by hand to predict an action: the server's events do.
//   - Every wait goes through Options.Timer (a room's: room.After), never tea.Tick.
//   - Every room: a package doc saying what it owns, a keys.go when it
//     takes keys, goldens in its testdata/, a NO_COLOR view.
//
// # Adding a room
//
//  1. Make ui/<room> with New or Open(st *styles.Styles, …) (Model,
//     tea.Cmd), Update(tea.Msg) (room.Dialog, tea.Cmd) returning nil to
//     close, and View(w, h int) string; draw it in dialog.Frame if it is
//     an overlay.
//  2. If it needs the server, add the call as AGENTS.md says ("A server
//     call"): a request and its reply in task's request.go and a case in
//     the live Server's Do (and the recording's, if a recording can
//     answer it). The room returns room.Send(task.YourRequest{…}) and
//     handles task.YourReply in Update.
//  3. Give it a key and an Action in ui/keymap, and build it in Model.room
//     (rooms.go).
//
// # Cost
//
// Whole-tree work runs once per batch in Update, never per frame; View
// draws only the rows in the viewport, each cached by what it shows
// (BenchmarkView, EventBurst, WatchdogBurst; figures in docs/perf.md).
package ui
