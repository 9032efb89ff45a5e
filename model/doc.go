// Package model turns a REST snapshot plus the server's event stream into
// the parent/child session tree, with each session's live tool calls.
//
// It is pure: no I/O, no goroutines, no clock (time arrives with the
// data, or from the caller: SetNow), no Bubble Tea. A State is owned by
// one goroutine; Apply and ApplySnapshot change it deterministically.
// Reads fill small caches inside the State (roots, subtree rollups,
// Flatten's filter marks), so they too belong to that goroutine.
//
// # Choices where the server leaves room
//
//   - Placeholders. An event that names a session before its
//     session.created (a part, a busy status, a task call's child id, a
//     permission) makes a placeholder with Known false, which
//     session.created fills in. An idle status or a session.error for an
//     unknown id makes nothing: the server sends those for ids it does not
//     have (abort of an unknown id). A deleted id is remembered, so a late
//     event does not bring it back.
//   - Order. Children are sorted by creation time, tool calls by part id
//     (both ascend with time), messages by message id, so the tree does not
//     depend on the order events arrive in. A tool call never goes back
//     from completed/error to pending/running, and an older session info
//     (by time.updated) only fills blanks: late duplicates change nothing.
//   - Status. A snapshot's status map covers the sessions it lists (and
//     those in the map): absent means idle, whatever the stream said. A
//     session going idle voids its pending permissions and questions.
//     Err is set by session.error or by an error on the newest assistant
//     message, and cleared when the session goes busy again; with messages
//     in a snapshot, it is the newest assistant message's error.
//   - A call's outcome (CallStatus). A call an abort cut is ToolAborted:
//     1.18 stores a killed bash command completed, exit null, "User
//     aborted the command"; both versions store other cut calls as errors
//     ("Tool execution aborted", "Task cancelled" for a task whose child
//     was aborted). A call still pending or running in a session known to
//     be idle is ToolInterrupted, counted in Counts.ToolsInterrupted,
//     never in ToolsRunning: after an abort the server does not always
//     close them.
//   - Stopping. A run that stopped without a word on how it ended (idle,
//     its last reply unfinished, no error, no call an abort cut) is
//     KindRunning, reason stopping, for Grace after the model first saw
//     it so, then interrupted: a server can go idle before it writes the
//     abort's error (1.1.65 does), and the reason must not flip. The
//     caller tells the time (SetNow); a read that finds a stop whose run
//     went quiet long ago trusts it at once (stopping.go).
//   - Tokens and cost. Per assistant message, its own totals when the
//     server sent them, else the sum of its step-finish parts (each counted
//     once by part id), never both. A session's figure is the larger of
//     that sum and the server's own session totals (1.18 sends them; they
//     can lag but never overcount). Subtree adds every descendant; OpenCode
//     leaves children out of a parent's cost, octop does not. A reply that
//     used tokens with no cost reported is unpriced (Unpriced, the one
//     rule): each session counts them and the subtree adds them up beside
//     the cost, which is then a lower bound, and n/a when nothing is
//     priced (Cost), never $0.
//   - Links. A task call's child comes from metadata.sessionId, or from
//     the output (`task_id: ses_…` on 1.1.x, `<task id="ses_…">` on 1.18.x,
//     `session_id: ses_…` in `<task_metadata>` on older servers), or, while
//     1.1.x gives none (and for calls it aborts), from the child's title
//     "<description> (@<agent> subagent)" under the same parent. The
//     server's word replaces a title guess. Session.TaskPartID is the
//     reverse link.
//   - Background tasks (1.18 with background subagents). A task call whose
//     metadata says background (a foreground task moved to the background
//     says so there too, not in its input), or whose completed output
//     opens with state="running", launched its child in the background:
//     it follows the child (CallStatus and Counts: running while the
//     child runs, then the child's end, an abort as an error). Its session,
//     once idle, is KindBackground while such a child runs, or has ended
//     with its end notice (a synthetic user message, ParseNotice) not come
//     yet; with the notice there and not answered, it is running
//     ("starting"), as the server is about to run it. An aborted or
//     interrupted child gets no notice and is not waited for. A child
//     known idle but unread, with no notice, leaves its parent
//     KindNotLoaded. A notice is neither a prompt nor a reply: RunStart
//     stays at the prompt that launched the tasks, the run goes on, and
//     LastText ignores it.
//     Only calls count: a child made by `octop launch` never holds its
//     parent.
//   - Bounds. Error keeps 256 bytes, LiveTail (a running
//     call's streamed output) its last 256 bytes, Title and Input one line
//     of 200 bytes, LastText the last 4 KiB of the newest assistant text
//     part (the end of a reply says most). Streamed deltas extend only that
//     part; a delta cannot tell text from reasoning, and the part's own
//     update, which says, always comes first.
//   - Times. A session's runs (State.Runs, see Run) are the one home of
//     when it ran: each from a prompt to the last thing it did, with no
//     idle time in them; a task call lasts until the run of the child it
//     started ends (a background one's until its child ends), and a run
//     until its calls end, so children nest inside their task calls and
//     those inside their parents' runs. Elapsed is their sum, Ended the
//     last one's end, CallTimes a call's. The tree's elapsed column, the
//     timeline, the detail pane, `octop tree --json` and the exported
//     spans all read them.
//   - Snapshot.Complete: a listing of every session lets ApplySnapshot drop
//     the known sessions it lacks (deleted while the stream was down);
//     without it, unlisted sessions are kept as they were.
//
// # Speed and memory
//
// BenchmarkDecodeOnly, DecodeAndApply, Flatten and Memory (make bench)
// hold the reducer to its targets; their figures are in docs/perf.md.
// BenchmarkScaleMemory says what a session of a 50,000-session server
// costs, listed and with its history read (per session and per tool
// call), and TestScaleMemoryBound holds it: a session only listed keeps
// its list entry and nothing more (see more.go), a call keeps no output.
//
// Each session carries its own version (SessionVersion), moved by every
// change to that session's own data, so a view caches a row by it and an
// event redraws only the rows it touched; TestSessionVersionCoversOwnChanges
// replays every recording to check no change slips past it. A long run
// whose sessions come and go keeps a flat heap (the tree pane's BenchmarkSoak,
// make bench-soak); a session kept forever keeps every tool call it made.
package model
