// Package watchdog is octop's one source of news: from the model's
// sessions it derives lifecycle events (session.started, session.done,
// session.failed, session.aborted, session.interrupted, session.waiting,
// session.answered, connection.lost, connection.restored) and runaway
// marks (loop, stall, budget, errors), each emitted once as a transition.
// The TUI's marks, the notifications, the --exec hook and `octop watch`
// all read it.
//
// It is pure like model: no I/O, no goroutines, no clock. The caller
// applies events to a model.State, then hands the Watchdog the same
// events with the time they arrived (Events), a periodic Tick (for
// stalls), every Resync after a REST read, the sessions whose histories
// it read besides (Learn), and every connection change (Conn). Each returns an Out: the events, and the aborts the config asks
// for, which the caller carries out (live.AbortTree).
//
// # Detectors
//
//   - loop: among a session's last LoopWindow (20) calls whose input is
//     known, the same tool with the same input Loop (5) times in a row, or
//     Loop times anywhere in the window. Clears when the repeats leave the
//     window.
//   - stall: busy (not retrying, not waiting on the person), no tool call
//     pending or running, and no event naming the session for Stall
//     (180 s). A running tool (a long bash command, a subagent's task
//     call) or streamed text is never a stall. Clears on the next event.
//     No stall is judged while disconnected, and quiet clocks restart at
//     every Resync.
//   - budget: a session's own tokens or cost over BudgetTokens or
//     BudgetCost, or a root's whole tree's (off when zero). The cost is
//     the priced replies' (model.Cost): with some unpriced it is a lower
//     bound, and the mark says "≥$"; what no reply prices is not taken
//     as $0 spent, nor guessed over the cap.
//   - errors: Errors (5) failed tool calls in a row among the ended ones.
//
// A mark found at start on a session that is no longer running is kept
// but not announced: history is not news.
//
// # Transitions
//
// The first Resync sets the baseline: sessions found then emit nothing.
// After that a session's phase (idle, busy, waiting, done, failed,
// aborted, interrupted) is compared with the one last seen, so a reconnect
// emits only what truly changed: a session that ended while the stream
// was down gets its end event after the resync, once. A session that ran
// and ended between two looks gets session.started then its end.
// One rule says what is news, for every look (news): what the stream
// shows of a session whose run the model can tell is. What is learned
// instead is the baseline too: a snapshot after a reconnect, a history
// read after a look (the screen reads every session's, see Learn), the
// guessed phase of a session whose run is not read yet, which the
// server's late word of an old run (its summary, its final tokens, an
// error) can change. It is recorded, not announced, unless the session
// runs now or did when last seen, is new since the baseline, or its
// messages show a run since the last look that read them, or, read for
// the first time (`octop watch` reads no history at its baseline), a run
// that began after the session's last update known to the last look.
// The phase is model.StateOf's kind (denied is reported as
// session.failed with status "denied"); for an idle session whose history
// is not loaded it is guessed from the error (MessageAbortedError is an
// abort) and interrupted calls. An end read before any status is known is
// not trusted. A session idle while background tasks it launched run
// (model.KindBackground) is still busy: its end comes once they have
// ended and it has answered their notices, and a child's event looks
// again at the ancestors waiting on it, since an aborted background child
// sends its parent nothing.
//
// # Cost
//
// BenchmarkEvents, EventsDelta, Tick and Resync measure it over 10,000
// sessions (figures in docs/perf.md).
//
// Each event looks again only at the detectors it can change (kindsTouched),
// and a tick only at stalls.
package watchdog
