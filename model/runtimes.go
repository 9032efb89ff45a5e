package model

import "math"

// How the runs' ends are told (see Run): derive sets each run's tail from
// the task calls it made, children first, so a read costs the session's
// own runs and calls, never a walk of its subtree.

// runTails sets the tails of n's runs from its task calls; its children's
// tails are already set.
func (s *State) runTails(n *Session) {
	runs := n.runs
	if len(runs) == 0 {
		return
	}
	for i := range runs {
		runs[i].tail = 0
	}
	k := StateOf(n).Kind
	n.eachTaskCall(func(c callLink) {
		i := max(runAt(runs, c.at), 0)
		if c.open && (k == KindAborted || n.callGoesOn(i)) {
			// Going on; or left open by an abort, which ended it there.
			return
		}
		runs[i].tail = max(runs[i].tail, s.callEnd(n, c))
	})
	if k == KindInterrupted && len(n.kids) > 0 {
		s.unnamedTails(n, runs)
	}
}

// unnamedTails: a run cut short waited on the children its calls made,
// and a child no call names (1.1 names none while the call runs) was made
// by one of them all the same.
func (s *State) unnamedTails(n *Session, runs []runRec) {
	named := map[string]bool{}
	n.eachTaskCall(func(c callLink) { named[c.child] = true })
	for _, c := range n.kids {
		if c.Created == 0 || named[c.ID] {
			continue
		}
		if end, ok := s.childRunEnd(c, c.Created); ok && end != openEnd {
			i := max(runAt(runs, c.Created), 0)
			runs[i].tail = max(runs[i].tail, end)
		}
	}
}

// eachTaskCall hands fn each task call of the session that names a child:
// from its Tools, or from its links once sealed.
func (ss *Session) eachTaskCall(fn func(callLink)) {
	if ss.sealed() {
		for _, c := range ss.x.links {
			fn(c)
		}
		return
	}
	for i := range ss.Tools {
		if t := &ss.Tools[i]; t.Tool == "task" && t.ChildID != "" {
			fn(ss.linkOf(t))
		}
	}
}

func (ss *Session) linkOf(t *ToolCall) callLink {
	return callLink{child: t.ChildID, at: ss.callAt(t.MessageID, t.Start), start: t.Start, end: t.End,
		open: !t.Ended(), follows: t.follows(), part: t.PartID, msg: t.MessageID}
}

// callEnd is when a task call that is over (or cut short) ended, as its
// child tells: the end of the child's run it started, if later than the
// call's own; openEnd while that run goes on and the call follows it.
func (s *State) callEnd(parent *Session, c callLink) int64 {
	end := max(c.start, c.end)
	child := s.sessions[c.child]
	if child == nil || child.parent != parent {
		return s.noticeEnd(parent, c, end)
	}
	ce, found := s.childRunEnd(child, c.start)
	switch {
	case !found:
		return s.noticeEnd(parent, c, end)
	case ce == openEnd && !c.follows:
		// The server closed the call while the child still stops (an
		// abort reaches it a moment later): the call's own end, for now.
		return end
	}
	return max(end, ce)
}

// noticeEnd is when a background call whose child is not known ended:
// at its end notice, or going on while the parent waits on it.
func (s *State) noticeEnd(parent *Session, c callLink, end int64) int64 {
	if !c.follows {
		return end
	}
	if n := parent.noticeFor(c.child, c.msg); n != nil {
		if a := parent.findMsg(n.msg); a != nil {
			return max(end, a.created)
		}
	}
	if t := parent.callByPart(c.part); t != nil {
		if f := parent.follow(t); f.open && !f.unknown {
			return openEnd
		}
	}
	return end
}

// childRunEnd is the end of child's run that a call made at from
// started: the first run still going at from or begun since (openEnd
// while it goes on); found is false when there is none.
func (s *State) childRunEnd(child *Session, from int64) (end int64, found bool) {
	r, found := childRun(child, from)
	return r.end, found
}

// childRun is child's run that a call made at from started (see
// childRunEnd).
func childRun(child *Session, from int64) (run runRec, found bool) {
	child.eachRun(func(r runRec) bool {
		if r.end >= from {
			run, found = r, true
			return false
		}
		return true
	})
	return run, found
}

// eachRun hands fn the session's runs as its reads give them, oldest
// first: each ending at the later of its own end and its tail, joined
// with the next where that reaches it, and the last ending at openEnd
// while it goes on. fn returns false to stop.
func (ss *Session) eachRun(fn func(r runRec) bool) {
	raw := ss.runs
	live := StateOf(ss).Kind.Live()
	for i := 0; i < len(raw); {
		r := runRec{start: raw[i].start, end: max(raw[i].end, raw[i].tail)}
		i++
		for i < len(raw) && raw[i].start <= r.end {
			r.end = max(r.end, raw[i].end, raw[i].tail)
			i++
		}
		if i == len(raw) && live {
			r.end = openEnd
		}
		if !fn(r) {
			return
		}
	}
	if len(raw) == 0 && live && ss.Created != 0 {
		// Running, with none of its messages seen yet: since its creation.
		fn(runRec{start: ss.Created, end: openEnd})
	}
}

// Runs is when the session ran, oldest first (see Run): nil if it never
// did anything the model has seen. The slice is the caller's.
func (s *State) Runs(id string) []Run {
	ss := s.sessions[id]
	if ss == nil {
		return nil
	}
	s.derive()
	var out []Run
	ss.eachRun(func(r runRec) bool {
		out = append(out, Run{Start: r.start, End: shownEnd(r.end)})
		return true
	})
	return out
}

func shownEnd(end int64) int64 {
	if end == openEnd {
		return 0
	}
	return end
}

// Elapsed is how long the session has run, in ms, given the current time:
// the sum of its runs, the one going on counted until nowMS; the idle
// time between two runs is in neither.
func (s *State) Elapsed(id string, nowMS int64) int64 {
	ss := s.sessions[id]
	if ss == nil {
		return 0
	}
	s.derive()
	var sum int64
	ss.eachRun(func(r runRec) bool {
		end := r.end
		if end == openEnd {
			end = nowMS
		}
		if d := max(end-r.start, 0); d < math.MaxInt64-sum {
			sum += d
		} else {
			sum = math.MaxInt64 // a server's times past any sense
		}
		return true
	})
	return sum
}

// Ended is when the session's last run ended (Unix ms), 0 while it goes
// on or if it never did anything (see Run for how a run cut short ends).
func (s *State) Ended(id string) int64 {
	ss := s.sessions[id]
	if ss == nil {
		return 0
	}
	s.derive()
	var end int64
	ss.eachRun(func(r runRec) bool {
		end = shownEnd(r.end)
		return true
	})
	return end
}

// CallTimes is when the session's call with that part id ran (Unix ms):
// its start (its message's creation when the server gave none; a task
// call's no later than the run of the child it started), and its end as
// its run tells it: a task call's lasts until the run of the child
// it started ended (a background one's until the child ended), and a call
// left open by a run that stopped ends with that run. end is 0 while the
// call goes on; ok is false for a call the session does not hold.
func (s *State) CallTimes(id, partID string) (start, end int64, ok bool) {
	ss := s.sessions[id]
	if ss == nil {
		return 0, 0, false
	}
	i, found := ss.findTool(partID)
	if !found {
		return 0, 0, false
	}
	s.derive()
	t := &ss.Tools[i]
	start = t.Start
	if start == 0 {
		start = ss.callAt(t.MessageID, 0)
	}
	runs := ss.runs
	ri := runAt(runs, ss.callAt(t.MessageID, t.Start))
	switch {
	case !t.Ended() && ss.callGoesOn(ri):
		return start, 0, true
	case !t.Ended() && ri >= 0:
		// Cut short: it ends with its run.
		return start, max(start, runs[ri].end, runs[ri].tail), true
	case t.Tool == "task" && t.ChildID != "":
		end = s.callEnd(ss, ss.linkOf(t))
		if c := s.sessions[t.ChildID]; c != nil && c.parent == ss {
			// 1.1 times the call from after it made the child: the call
			// was going on when its child's run began.
			if r, ok := childRun(c, t.Start); ok {
				start = min(start, r.start)
			}
		}
	default:
		end = max(start, t.End)
	}
	return start, shownEnd(end), true
}

// callGoesOn says whether an open call of run i still runs: only in the
// last run of a session not known to be idle (see CallStatus).
func (ss *Session) callGoesOn(i int) bool { return !ss.stopped() && i == len(ss.runs)-1 }

// callByPart is the session's call with that part id, or nil.
func (ss *Session) callByPart(partID string) *ToolCall {
	if i, ok := ss.findTool(partID); ok {
		return &ss.Tools[i]
	}
	return nil
}
