package transcript

// Follower hands out the entries of a growing transcript once each, in
// order, when they are settled: `octop log --follow` prints a call when it
// ends, not each time its output grows. It holds back everything after the
// first unsettled entry, so the order stays the transcript's.
type Follower struct {
	sent int
}

// Next returns the entries not handed out before that are now settled.
// idle says the session has stopped (every entry is then settled). Build
// appends to a transcript and never reorders it, so a count is enough.
func (f *Follower) Next(entries []Entry, idle bool) []Entry {
	if f.sent > len(entries) { // messages were removed (a revert): go on from here
		f.sent = len(entries)
	}
	start, end := f.sent, f.sent
	for end < len(entries) && entries[end].Settled(idle) {
		end++
	}
	f.sent = end
	return entries[start:end]
}
