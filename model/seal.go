package model

// Seal lets go of what a finished read no longer needs of a session: its
// tool calls, message accounts, texts and todos go; its state (StateOf),
// counts, times, tokens, cost and unpriced replies stay as they are (of its task calls it
// keeps what its runs' ends need: see Run). It is for a read that
// is over (`octop tree` folds a history, seals it and moves on to the
// next). A session whose state follows background children it launched
// is not sealed (ok false): their histories may not be in yet. A sealed
// session that changes again (an event about it, a permission it asks,
// a status other than idle, a newer info, a read of its history) is
// opened again first: see reopen.
func (s *State) Seal(id string) (ok bool) {
	ss := s.sessions[id]
	if ss == nil || ss.nBg > 0 || ss.rd().revert != nil || ss.stop == stopPending {
		return false // a revert is kept whole: it is shown; a grace ends
	}
	if ss.sealed() {
		return true
	}
	k := keep(ss)
	var links []callLink
	ss.eachTaskCall(func(c callLink) { links = append(links, c) })
	ss.Tools = nil
	if links == nil {
		ss.x = s.sealedAs(k)
	} else {
		ss.x = &more{frozen: &k, links: links} // its own: what its times need
	}
	return true
}

// SealIdle is Seal for a state that goes on watching: it seals only a
// session whose history is read, that is idle and asks nothing, so what
// Seal keeps stays true until the session changes again.
func (s *State) SealIdle(id string) (ok bool) {
	ss := s.sessions[id]
	if ss == nil || !ss.historyRead || ss.run != runIdle || ss.waiting > 0 {
		return false
	}
	return s.Seal(id)
}

// SealIdleExcept seals, as SealIdle, every session but those keep
// names, and reports how many it sealed: a screen's sweep of what it no
// longer shows. It passes over the sessions once, cheaply for those
// already sealed or still to read.
func (s *State) SealIdleExcept(keep map[string]bool) (n int) {
	for _, ss := range s.list {
		if ss.sealed() || !ss.historyRead || keep[ss.ID] {
			continue
		}
		if s.SealIdle(ss.ID) {
			n++
		}
	}
	return n
}

// Sealed reports whether the session is sealed: its state, counts and
// totals are whole, its tool calls, texts and todos are not kept.
func (s *State) Sealed(id string) bool {
	ss := s.sessions[id]
	return ss != nil && ss.sealed()
}

func (ss *Session) sealed() bool { return ss.x != nil && ss.x.frozen != nil }

// reopen undoes a seal before the session changes: it is as if its
// history had not been read (HasHistory false, not Loaded, no tool calls
// counted), so what comes next is not taken as all there is, and a read
// of its history builds it again whole. Its tokens, cost and count of
// unpriced replies stay, as a floor under what its messages will sum to.
func (s *State) reopen(ss *Session) {
	if !ss.sealed() {
		return
	}
	ss.x = &more{infoTokens: ss.Tokens, infoCost: ss.Cost, infoUnpriced: ss.unpriced}
	ss.nOpen, ss.nDone, ss.nFailed, ss.nAborted = 0, 0, 0, 0
	ss.historyRead, ss.Loaded = false, false
	s.queue(ss)
}

// sealed is what a sealed session keeps of its history beyond what its
// Session holds itself (its list entry, its call counts, its times
// RunStart, RunEnd and LastActive, its Tokens and Cost): the facts a
// finished session's row, counts, filter and outputs read that live in
// its more. It is the one list of them: a fact to keep is a field here
// and its line in keep. Sessions sealed alike share one record, so a
// field is a comparable value (a list goes behind a pointer).
type sealed struct {
	state SessionState // StateOf, as it was when sealed
}

// keep is what ss keeps once sealed.
func keep(ss *Session) sealed {
	return sealed{
		state: StateOf(ss),
	}
}

// maxSealed bounds the distinct sealed records shared between sessions;
// past it each sealed session keeps its own.
const maxSealed = 4096

// sealedAs is the shared more of sessions sealed as k: a finished read
// of 50,000 sessions ends in a few distinct states.
func (s *State) sealedAs(k sealed) *more {
	if x := s.sealed[k]; x != nil {
		return x
	}
	x := &more{frozen: &k}
	if s.sealed == nil {
		s.sealed = map[sealed]*more{}
	}
	if len(s.sealed) < maxSealed {
		s.sealed[k] = x
	}
	return x
}
