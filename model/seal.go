package model

// Seal lets go of what a finished read no longer needs of a session: its
// tool calls, message accounts, texts and todos go; its state (StateOf),
// counts, times, tokens and cost stay as they are. It is for a read that
// is over (`octop tree` folds a history, seals it and moves on to the
// next): nothing may change the session afterwards, as its state is no
// longer derived but kept. A session whose state follows background
// children it launched is not sealed (ok false): their histories may not
// be in yet. A sealed session that changes again all the same starts
// afresh from what it kept.
func (s *State) Seal(id string) (ok bool) {
	ss := s.sessions[id]
	if ss == nil || ss.nBg > 0 {
		return false
	}
	if ss.x != nil && ss.x.frozen != nil {
		return true
	}
	st := StateOf(ss)
	ss.Tools = nil
	ss.x = s.sealedAs(st)
	return true
}

// maxSealed bounds the distinct sealed states shared between sessions;
// past it each sealed session keeps its own.
const maxSealed = 4096

// sealedAs is the shared more of sessions sealed in state st: a finished
// read of 50,000 sessions ends in a few distinct states.
func (s *State) sealedAs(st SessionState) *more {
	if x := s.sealed[st]; x != nil {
		return x
	}
	x := &more{frozen: &st}
	if s.sealed == nil {
		s.sealed = map[SessionState]*more{}
	}
	if len(s.sealed) < maxSealed {
		s.sealed[st] = x
	}
	return x
}
