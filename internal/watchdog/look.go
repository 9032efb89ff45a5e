package watchdog

import (
	"strings"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// look compares a session with what was last seen of it and emits the
// transitions: its lifecycle, then its marks. learned says the look
// follows a read (a snapshot, a history) rather than the stream (see
// news). It reports whether what it found was news.
func (w *Watchdog) look(out *Out, st *model.State, ss *model.Session, t *track, nowMS int64, learned bool) bool {
	news := w.lookLifecycle(out, st, ss, t, nowMS, learned)
	w.mark(out, st, ss, t, allKinds, nowMS, news)
	return news
}

// news is the one rule of what is news, every look's. Before the first
// Resync nothing is: that look sets the baseline. After it, what the
// stream shows of a session whose run the model can tell (Loaded) is.
// What is learned instead, by a read or from a session whose run is not
// read yet (its phase a guess, which the server's late word of an old
// run, its summary, tokens or error, can change), is news only for a
// session running now or when last seen, one new since the baseline, or
// one whose messages show a run since the last look (ranSince).
// cur is the session's phase now; t still holds the last look's.
func (w *Watchdog) news(ss *model.Session, t *track, cur phase, learned bool) bool {
	switch {
	case !w.primed:
		return false
	case ss.Loaded && !learned:
		return true
	}
	return t.fresh || t.phase.live() || cur.live() || ss.Loaded && t.ranSince(ss)
}

// ranSince says the session's messages (read: ss.Loaded) show a run the
// last look did not: a newer prompt than the last look that read them
// saw, or, for a session no look has read (`octop watch` reads no
// history at its baseline), one newer than the latest its last run can
// have started (see lookLifecycle). Only that bound tells a run made
// while watch was away from the same old run read at last.
func (t *track) ranSince(ss *model.Session) bool {
	if t.loaded {
		return ss.RunStart != t.runStart
	}
	return t.runStart > 0 && ss.RunStart > t.runStart
}

// lookLifecycle emits the session's lifecycle transitions since the last
// look, if they are news, which it reports.
func (w *Watchdog) lookLifecycle(out *Out, st *model.State, ss *model.Session, t *track, nowMS int64, learned bool) bool {
	cur := phaseOf(st, ss)
	prev, newRun := t.phase, t.ranSince(ss)
	news := w.news(ss, t, cur, learned)
	if w.awaits && prev.live() && !cur.live() && model.StateOf(ss).Kind == model.KindNotLoaded {
		// How it ended cannot be told before its history is read; its
		// reader is on the way (AwaitHistory), and Learn tells it then.
		return news
	}
	t.phase = cur
	switch {
	case ss.Loaded:
		// An unread session's RunStart may be older than its last run:
		// the run a later read shows is compared with this one.
		t.runStart, t.loaded = ss.RunStart, true
	case !t.loaded:
		// Never read (a prompt the stream shows makes it Loaded): its
		// last run began no later than the server last updated it, as a
		// prompt touches its session. A later read's run is compared
		// with that bound.
		t.runStart = max(t.runStart, ss.Updated)
	}
	if news {
		for _, name := range transitions(prev, cur, newRun) {
			out.add(w.event(st, ss, name, cur, nowMS))
		}
	}
	return news
}

// transitions lists the events a change from prev to cur means. newRun
// says a new run started since the last look (its user message is newer),
// so an ended→ended change still shows the run that happened in between.
func transitions(prev, cur phase, newRun bool) []string {
	switch {
	case cur == phaseBusy && prev == phaseWaiting:
		return []string{SessionAnswered}
	case cur == phaseBusy && prev != phaseBusy:
		return []string{SessionStarted}
	case cur == phaseWaiting && prev != phaseWaiting:
		if prev == phaseBusy {
			return []string{SessionWaiting}
		}
		return []string{SessionStarted, SessionWaiting}
	case cur.ended() && (prev == phaseBusy || prev == phaseWaiting):
		return []string{cur.endEvent()}
	case cur.ended() && (prev == phaseNone || (newRun && prev.ended())):
		// It ran and ended between two looks (while disconnected, or
		// within one batch of events).
		return []string{SessionStarted, cur.endEvent()}
	case cur.ended() && prev.ended() && cur != prev:
		return []string{cur.endEvent()} // e.g. a late error for a run taken as done
	}
	return nil
}

func (w *Watchdog) event(st *model.State, ss *model.Session, name string, p phase, nowMS int64) Event {
	tot := st.Counts(ss.ID)
	e := Event{
		TS: nowMS, Name: name, ID: ss.ID, Parent: ss.ParentID, Root: rootOf(st, ss).ID,
		Title: ss.Title, Agent: ss.Agent, Status: p.String(), Tokens: tot.Tokens,
		Cost: tot.SubtreeCost().JSON(), Unpriced: tot.Unpriced,
	}
	switch name {
	case SessionAborted:
		e.Reason = w.AbortReason(st, ss.ID)
		if e.Reason != "" {
			// The server says the session stopped, after octop asked it
			// to: only now is the abort octop's, in the model too.
			st.NoteAbortedBy(ss.ID, strings.TrimPrefix(e.Reason, "aborted by "))
		}
		if e.Reason == "" {
			// Who stopped it, as every other output says it.
			e.Reason = model.StateOf(ss).Detail
		}
		if e.Reason == "" && ss.Err != nil {
			e.Reason = errText(ss.Err)
		}
	case SessionFailed, SessionInterrupted:
		e.Reason = model.StateOf(ss).Detail
		if e.Reason == "" && ss.Err != nil {
			e.Reason = errText(ss.Err)
		}
		if e.Reason == "" && name == SessionInterrupted {
			e.Reason = "tool calls left running"
		}
	}
	return e
}

func errText(e *wire.ErrorInfo) string {
	if e.Data.Message != "" {
		return e.Name + ": " + e.Data.Message
	}
	return e.Name
}

// Indexes of the kinds in kinds and in a track's marks, for masks.
const (
	loopIdx, stallIdx, budgetIdx, errorsIdx = 0, 1, 2, 3
	allKinds                                = 1<<len(kinds) - 1
)

// mark sets and clears the session's runaway marks of the kinds in mask,
// emits runaway.KIND for each new one if the look found news or the
// session runs (a runaway found at the first look runs away now), and
// asks for an abort where the config says so.
func (w *Watchdog) mark(out *Out, st *model.State, ss *model.Session, t *track, mask uint8, nowMS int64, news bool) {
	before := t.marked()
	for i := range kinds {
		if mask&(1<<i) != 0 {
			w.markOne(out, st, ss, t, i, nowMS, news)
		}
	}
	switch after := t.marked(); {
	case after && !before:
		w.marked[ss.ID] = struct{}{}
	case before && !after:
		delete(w.marked, ss.ID)
	}
}

func (w *Watchdog) markOne(out *Out, st *model.State, ss *model.Session, t *track, i int, nowMS int64, news bool) {
	k := kinds[i]
	if (k == Loop || k == Errors) && st.Sealed(ss.ID) {
		return // its calls were let go; what they showed when read stands
	}
	msg, on := w.detect(k, st, ss, t, nowMS)
	if !on {
		t.setMark(i, nil)
		return
	}
	if m := t.mark(i); m != nil {
		m.Evidence = msg
		return
	}
	t.setMark(i, &Mark{Kind: k, Since: nowMS, Evidence: msg})
	live := t.phase.live()
	if !news && !live {
		return // history: marked, not news
	}
	e := w.event(st, ss, RunawayPrefix+string(k), t.phase, nowMS)
	e.Reason = msg
	out.add(e)
	if live && w.cfg.aborts(k) {
		w.requestAbort(out, st, ss, k)
	}
}

func (w *Watchdog) detect(k Kind, st *model.State, ss *model.Session, t *track, nowMS int64) (string, bool) {
	switch k {
	case Loop:
		return detectLoop(ss.Tools, w.cfg.Loop, w.cfg.LoopWindow)
	case Errors:
		return detectErrors(ss.Tools, w.cfg.Errors)
	case Stall:
		if w.down {
			return "", false
		}
		return detectStall(st, ss, nowMS-t.heard, w.cfg.Stall)
	case Budget:
		return detectBudget(st, ss, w.cfg)
	}
	return "", false
}

// requestAbort asks, once per session, for the session and its subtree to
// be aborted, unless an ancestor's abort already covers it.
func (w *Watchdog) requestAbort(out *Out, st *model.State, ss *model.Session, k Kind) {
	if w.AbortReason(st, ss.ID) != "" {
		return
	}
	why := "aborted by octop: " + string(k)
	w.abortWhy[ss.ID] = why
	out.Aborts = append(out.Aborts, Abort{ID: ss.ID, Kind: k, Reason: why})
}
