package watchdog

import "github.com/octop-dev/octop/model"

// AwaitHistory says the caller reads the messages of the sessions a
// snapshot leaves unread, after every Resync, and hands them to Learn
// (the screen's history reader). A session last seen running whose end a
// snapshot cannot tell (its messages not read) then waits for Learn,
// instead of being guessed from what it showed before and announced
// twice, once wrong.
func (w *Watchdog) AwaitHistory() { w.awaits = true }

// Learn looks at sessions whose messages were just read outside the
// stream (the history reader's reads), after the caller applied them to
// st. What a history says of a session of the baseline (found at start
// or at a resync, and not seen running since) is not news: its phase and
// marks are taken silently, so a later resync does not announce them as
// changes. What changed while the stream could not tell is: a session
// last seen running that has ended, one new since the baseline, or one
// whose messages show a run after the last one read (see news).
func (w *Watchdog) Learn(st *model.State, ids []string, nowMS int64) Out {
	var out Out
	for _, id := range ids {
		ss := st.Session(id)
		if ss == nil {
			w.forget(id)
			continue
		}
		if model.StateOf(ss).Kind == model.KindNotLoaded {
			continue // nothing learned
		}
		t := w.track(ss, nowMS)
		news := w.look(&out, st, ss, t, nowMS, true)
		// Its spend counts against its root's tree budget, as in Events.
		if r := rootOf(st, ss); r != ss {
			w.mark(&out, st, r, w.track(r, nowMS), 1<<budgetIdx, nowMS, news)
		}
		t.fresh = false
	}
	sortOut(&out)
	return out
}
