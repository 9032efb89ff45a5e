package model

import "github.com/octop-dev/octop/internal/wire"

// more is what a session keeps beyond its entry in the session list: the
// accounts of its messages, the text it last wrote, its todo list, its
// retry, and the parts they come from. A session only listed has none
// (Session.x is nil), so a server's 50,000 listed sessions cost what
// their list entries say and no more; it is made by the first message,
// part, retry or note that needs it.
type more struct {
	msgs    []msgAcct   // by message id, ascending
	notices []noticeRef // background tasks' end notices, by message id
	todos   []wire.Todo

	lastText   string // the last assistant text, bounded
	textPart   string // part id lastText comes from
	textMsg    string // its message id
	streamPart string // the part Streaming follows
	agentMsg   string // the user message Agent comes from, once one named it
	todoPart   string // the todowrite call todos comes from, if one did
	retryMsg   string
	abortedBy  string
	retryAt    int64
	attempt    int
	// What the server's own session info says it spent: a floor under
	// the messages' sum. A session with no more spent exactly that.
	infoTokens, infoCost float64
	// infoUnpriced is the count of unpriced replies the session had when
	// its messages were last let go (sealed) or not kept yet: a floor too.
	infoUnpriced int32
	textDone     bool // that part has ended: late deltas no longer apply
	// revert is what the server says is undone (see Reverted), and the
	// diff it was read from.
	revert     *Reverted
	revertDiff string
	// frozen is what a sealed session keeps (see State.Seal); a sealed
	// more is shared, never written.
	frozen *sealed
	// links are a sealed session's task calls, which its Tools no longer
	// hold: what its runs' ends still need of them. A sealed session
	// with some keeps a more of its own.
	links []callLink
}

// none is what a session without more reads: all zero. Nothing writes
// through it (writers call Session.more).
var none more

// rd is the session's more for reading: the zero one when it has none.
func (ss *Session) rd() *more {
	if ss.x == nil {
		return &none
	}
	return ss.x
}

// more is the session's more for writing, made on first use (and
// afresh for a sealed session, whose more is shared).
func (ss *Session) more() *more {
	if ss.x == nil || ss.x.frozen != nil {
		// With no more, what it spent is its info's.
		ss.x = &more{infoTokens: ss.Tokens, infoCost: ss.Cost, infoUnpriced: ss.unpriced}
	}
	return ss.x
}

// setInfoTotals takes the tokens and cost the session's info says it
// spent, a floor under its messages' sum.
func (ss *Session) setInfoTotals(tokens, cost float64) {
	if ss.x == nil {
		ss.Tokens, ss.Cost = tokens, cost // no messages: the info's word
		ss.setUnpriced(0)
		return
	}
	x := ss.more()
	x.infoTokens, x.infoCost = tokens, cost
	ss.recomputeTotals()
}

// LastText is the last assistant text, bounded to its last 4 KiB.
func (ss *Session) LastText() string { return ss.rd().lastText }

// Todos is the session's todo list as todo.updated or its latest
// todowrite call last gave it (bounded: 100 items of one 200-byte line
// each); nil when it keeps none.
func (ss *Session) Todos() []wire.Todo { return ss.rd().todos }

// Retry is what a retrying session waits for.
type Retry struct {
	Attempt int    // the retry attempt
	Message string // the provider's error, one bounded line
	At      int64  // Unix ms of the next attempt
}

// Retry is the session's retry, when Run is StatusRetry (zero otherwise).
func (ss *Session) Retry() Retry {
	x := ss.rd()
	return Retry{Attempt: x.attempt, Message: x.retryMsg, At: x.retryAt}
}

// AbortedBy names who aborted the session when it was not a person at
// the keyboard (octop's watchdog sets it); see State.NoteAbortedBy.
func (ss *Session) AbortedBy() string { return ss.rd().abortedBy }

// setRetry sets (or, zero, clears) the retry without making a more for
// a session that has none to clear.
func (ss *Session) setRetry(r Retry) {
	if (ss.x == nil || ss.x.frozen != nil) && r == (Retry{}) {
		return
	}
	x := ss.more()
	x.attempt, x.retryMsg, x.retryAt = r.Attempt, r.Message, r.At
}

// clearText forgets the text taken as the last reply.
func (ss *Session) clearText() {
	if x := ss.x; x != nil && x.frozen == nil {
		x.lastText, x.textPart, x.textMsg, x.textDone = "", "", "", false
	}
}

// stopStreaming says the model is not writing or thinking right now.
func (ss *Session) stopStreaming() {
	ss.Streaming = StreamNone
	if ss.x != nil && ss.x.frozen == nil {
		ss.x.streamPart = ""
	}
}
