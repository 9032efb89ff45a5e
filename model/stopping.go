package model

// A session whose run stopped without a word on how it ended (idle, its
// last reply unfinished, no error, no call an abort cut) reads as
// interrupted. But a server about to say "aborted" can go idle first:
// 1.1.65 writes the reply's MessageAbortedError after its idle status (a
// second or more later on a loaded machine), and 1.18 shows the command
// it kills running for a moment after its idle. Read in that gap, the
// session would flip from interrupted to aborted for one abort. So such a
// session is stopping (running, reason stopping) for Grace after it was
// first seen so, and interrupted only after: a reason never flips.
//
// The model keeps no clock: the caller passes its time (SetNow), and the
// grace runs from the time the model first saw the session stopped.

// Grace is how long (ms) a session that stopped without saying how reads
// as stopping before it reads interrupted.
const Grace = 5_000

// stopHorizon (ms): a read (a snapshot, a history) that finds a session
// stopped trusts it stopped long ago, with no grace, when the last thing
// its run did is older than this.
const stopHorizon = 10 * 60_000

// Where a session stands in its grace (Session.stop).
const (
	stopNone    uint8 = iota
	stopPending       // stopping: within the grace
	stopSettled       // the grace is over: it reads interrupted
)

// SetNow tells the model the time (Unix ms, the caller's clock), before
// it applies what came and periodically: a session stopped without a
// word for Grace then reads interrupted. A State never told the time
// keeps no grace (a test's, a recording's).
func (s *State) SetNow(now int64) {
	s.now = now
	for ss := range s.stopping {
		if now >= s.stops[ss.ID]+Grace {
			s.settleStop(ss)
		}
	}
}

// settleStop ends ss's grace: it reads as its messages say.
func (s *State) settleStop(ss *Session) {
	delete(s.stopping, ss)
	ss.stop = stopSettled
	s.version++
	s.changed(ss, s.version)
	s.touchFollowers(ss, s.version)
}

// Stopping lists the sessions within their grace, and when the last of
// them ends (Unix ms): a reader that cannot wait for events reads them
// again then (0 when none).
func (s *State) Stopping() (ids []string, until int64) {
	for ss := range s.stopping {
		ids = append(ids, ss.ID)
		until = max(until, s.stops[ss.ID]+Grace)
	}
	return ids, until
}

// Stops are the times (Unix ms, the caller's clock) the model first saw
// each session stopped without a word on how: a reader that builds a new
// State for each read passes them on (Snapshot.Stops), so the grace runs
// from the first read, not each.
func (s *State) Stops() map[string]int64 {
	if len(s.stops) == 0 {
		return nil
	}
	out := make(map[string]int64, len(s.stops))
	for id, at := range s.stops {
		out[id] = at
	}
	return out
}

// stopsFrom takes a reader's earlier sights (Snapshot.Stops).
func (s *State) stopsFrom(stops map[string]int64) {
	for id, at := range stops {
		if cur, ok := s.stops[id]; !ok || at < cur {
			if s.stops == nil {
				s.stops = map[string]int64{}
			}
			s.stops[id] = at
		}
	}
}

// noteStop looks at whether ss stopped without a word on how, after a
// change: a new such stop starts its grace (live: seen as it happened,
// else read, and older than stopHorizon means long over); one that has
// since said how it ended, or run again, is forgotten.
func (s *State) noteStop(ss *Session, live bool) {
	k := baseState(ss).Kind
	if k != KindInterrupted {
		if k != KindNotLoaded && (ss.stop != stopNone || s.stops[ss.ID] != 0) {
			delete(s.stops, ss.ID)
			delete(s.stopping, ss)
			ss.stop = stopNone
		}
		return
	}
	if ss.stop != stopNone || s.now == 0 {
		return // noted already, or no clock
	}
	at, seen := s.stops[ss.ID]
	if !seen || at > s.now {
		at = s.now
		if !live && s.now-ss.LastActive > stopHorizon {
			at = s.now - Grace // long over
		}
		if s.stops == nil {
			s.stops = map[string]int64{}
		}
		s.stops[ss.ID] = at
	}
	if s.now >= at+Grace {
		ss.stop = stopSettled
		return
	}
	ss.stop = stopPending
	if s.stopping == nil {
		s.stopping = map[*Session]struct{}{}
	}
	s.stopping[ss] = struct{}{}
}

// forgetStop drops a removed session's grace.
func (s *State) forgetStop(ss *Session) {
	delete(s.stopping, ss)
	delete(s.stops, ss.ID)
}

// stoppingState is the state of a session within its grace.
var stoppingState = SessionState{Kind: KindRunning, Reason: ReasonStopping,
	Detail: "stopping: idle, its last reply unfinished; how it ended comes next"}
