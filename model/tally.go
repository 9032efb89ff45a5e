package model

// The header's counts (Tally) and the subtree rollups (derive) are kept
// up to date from the sessions that changed since they were last read,
// not by a walk over every session: with 50,000 sessions and a history
// folded in every few milliseconds, recounting the whole tree after each
// was most of the screen's work. A change queues its session for both
// (changed); a snapshot, which may change any session, asks for a full
// pass instead, and so does a queue grown past a quarter of the tree.

// Queue bits of Session.dq: the session waits in State.deriveQ, tallyQ.
const (
	qDerive uint8 = 1 << iota
	qTally
)

// changed notes that ss's own data changed at version rev: rows cached by
// SessionVersion are drawn again, and the rollups and counts look at it
// on their next read.
func (s *State) changed(ss *Session, rev uint64) {
	ss.rev = rev
	s.queue(ss)
}

// queue puts ss on the rollups' and the counts' queues, once each.
func (s *State) queue(ss *Session) {
	s.deriveQ = s.enqueue(ss, qDerive, s.deriveQ, &s.deriveFull)
	s.tallyQ = s.enqueue(ss, qTally, s.tallyQ, &s.tallyFull)
}

// enqueue appends ss to q unless it waits there already (bit) or a full
// pass is asked; a queue grown past a quarter of the tree asks for one.
func (s *State) enqueue(ss *Session, bit uint8, q []*Session, full *bool) []*Session {
	switch {
	case ss.dq&bit != 0 || *full:
	case len(q) > len(s.list)/4+64:
		*full = true
	default:
		ss.dq |= bit
		q = append(q, ss)
	}
	return q
}

// changedAll says any session may have changed: the next reads recount.
func (s *State) changedAll() {
	s.deriveFull, s.tallyFull = true, true
}

// Tally classes a session is counted in (Session.tcls, low bits), and
// the bits saying it is counted at all and counted as unread.
const (
	tOther uint8 = iota + 1
	tRunning
	tWaiting
	tFailed
	tClass   uint8 = 0x7
	tUnread  uint8 = 0x8
	tCounted uint8 = 0x80
)

// Tally counts every session (placeholders included) by state, as the
// header shows them: how many, and of them how many run (running,
// retrying, or waiting on background tasks), wait on the person, ended
// badly (failed, interrupted, denied), and have their history unread
// (Unread). It costs what changed since the last call.
func (s *State) Tally() Counts {
	if s.tallyFull {
		s.tallyFull = false
		for _, ss := range s.tallyQ {
			ss.dq &^= qTally
		}
		s.tallyQ = s.tallyQ[:0]
		s.tally = Counts{}
		clear(s.busy)
		for _, ss := range s.list {
			ss.tcls = 0
			s.count(ss)
		}
		return s.tally
	}
	for _, ss := range s.tallyQ {
		ss.dq &^= qTally
		if s.sessions[ss.ID] == ss { // not deleted meanwhile (remove uncounted it)
			s.uncount(ss)
			s.count(ss)
		}
	}
	clear(s.tallyQ)
	s.tallyQ = s.tallyQ[:0]
	return s.tally
}

// count adds ss to the tally as it is now.
func (s *State) count(ss *Session) {
	c, k := classify(ss)
	ss.tcls = c | tCounted
	s.tally.add(c, 1)
	if k == KindRunning {
		if s.busy == nil {
			s.busy = map[*Session]struct{}{}
		}
		s.busy[ss] = struct{}{}
	}
}

// classify is the tally class ss is counted in (with tUnread), and its
// state's kind.
func classify(ss *Session) (uint8, Kind) {
	c := tOther
	k := StateOf(ss).Kind
	switch {
	case k == KindRunning, k == KindRetrying, k == KindBackground:
		c = tRunning
	case k == KindWaiting:
		c = tWaiting
	case k.Bad():
		c = tFailed
	}
	if ss != nil && ss.Known && !ss.historyRead {
		c |= tUnread
	}
	return c, k
}

// CountIn adds session id to c as Tally counts every session: for counts
// over some of them (a filter's matches).
func (s *State) CountIn(c *Counts, id string) {
	cls, _ := classify(s.sessions[id])
	c.add(cls, 1)
}

// uncount takes ss out of the tally, as it was counted.
func (s *State) uncount(ss *Session) {
	if ss.tcls&tCounted != 0 {
		s.tally.add(ss.tcls, -1)
		delete(s.busy, ss)
	}
	ss.tcls = 0
}

// Busiest is the running session (KindRunning) that was active most
// recently, ties to the smallest id, or "" when none runs: what follow
// mode selects. It costs the running sessions, not the tree.
func (s *State) Busiest() string {
	s.Tally()
	var best *Session
	for ss := range s.busy {
		if best == nil || ss.LastActive > best.LastActive || ss.LastActive == best.LastActive && ss.ID < best.ID {
			best = ss
		}
	}
	if best == nil {
		return ""
	}
	return best.ID
}

// add adds d sessions of tally class c to the counts.
func (t *Counts) add(c uint8, d int) {
	t.Sessions += d
	switch c & tClass {
	case tRunning:
		t.Running += d
	case tWaiting:
		t.Waiting += d
	case tFailed:
		t.Failed += d
	}
	if c&tUnread != 0 {
		t.Unread += d
	}
}
