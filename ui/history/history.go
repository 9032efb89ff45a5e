// Package history reads sessions' messages in the background, so each
// row shows its real status, tools, tokens and time rather than a guess.
// The root starts a round after each snapshot, says which sessions are
// wanted now (the selected one and the rows in view) and whether a sort
// or filter needs every history, and folds each reply into the model;
// this package only schedules the reads, as commands. What is read
// first is what is wanted, then the rest newest first; on a server with
// many sessions the old ones wait until wanted (Policy). A read that
// fails is tried again after a wait that grows with each failure, until
// it is read or the next snapshot starts over.
//
// Reads beyond what is shown go at a bounded pace (Policy.Rate, in steps
// of PaceStep), so a server holding tens of thousands of sessions is not
// flooded; what is shown never waits on that pace.
//
// Every history is sealed once folded in and learned from (the watchdog
// reads it in the same step), unless its row is in view or selected or a
// room asks for it (model.State.SealIdle): its row shows the same from
// what a seal keeps, and the screen does not keep 50,000 histories whole.
// Sweep, once a second, seals the rest: a session that ended while
// watched, a row scrolled out of view. A sealed session is read again
// when it is selected or a room asks for it (the detail and the timeline
// show its calls, texts and todos) and once it changes (the model opens
// it again as unread).
package history

import (
	"context"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/room"
)

// Parallel is how many message lists the screen reads at once: enough to
// hide a round trip, few enough not to flood a server that holds
// thousands of sessions. The reads nobody asked for take at most
// Parallel-1, so a row brought into view always finds one free.
const Parallel = 4

// timeout bounds one session's read.
const timeout = 30 * time.Second

// The wait before failed reads are tried again: retryMin, doubled each
// time, up to retryMax. A new round (the next snapshot) starts afresh.
const (
	retryMin = time.Second
	retryMax = 30 * time.Second
)

// Reader schedules the reads of the sessions whose messages the model
// lacks (model.NeedsHistory): the wanted first, then the rest newest
// first, Parallel at once; each list is folded in as it arrives. Replies
// of an older snapshot's round are dropped by tag: that snapshot's queue
// is gone.
type Reader struct {
	policy   Policy
	tag      int
	queue    []string // read without being asked, newest first
	deferred []string // read only when wanted, or when all is set
	// eager is, when the policy defers some, the sessions read without
	// being asked (what Left counts); nil when none are deferred.
	eager map[string]bool
	all   bool     // a sort or filter needs every history
	want  []string // the selected session, the asked ones, the rows in view
	spare []string // the want before, its array reused
	// whole are the sessions read again when sealed: the selected one and
	// those a room asks for (their calls are shown).
	whole []string
	// seal are the sessions the last replies read, sealed at the next
	// Want unless wanted then (the watchdog has learned from their calls
	// by then).
	seal     []string
	inFlight map[string]bool
	reads    int // Cmds out
	bg       int // of them, reads nobody asked for
	loaded   int // read this round: chunks grow with it
	// failed are the sessions whose read failed, to read again once wait
	// has passed (a timer is out while waiting).
	failed  []string
	wait    time.Duration
	waiting bool
	// credit is how many reads beyond what is shown may start now, while
	// the policy paces them; pacing says a step's timer is out.
	credit int
	pacing bool
	// swept is the state's version and wantV the wanted sessions' at the
	// last Sweep, which has nothing new to seal while neither moved.
	swept, wantV, sweptWant uint64
}

// New returns a Reader that reads by p.
func New(p Policy) Reader { return Reader{policy: p} }

// chunkMax is the most sessions one read Cmd takes in turn. Chunks
// start at one session, so the first rows fill in at once, and grow with
// what is loaded, so a big history is folded in a few hundred Updates
// rather than one per session. A wanted chunk is at most wantChunk:
// the rows in view fill in a few at a time.
const (
	chunkMax  = 32
	wantChunk = 8
)

// Msg is the messages of a chunk of sessions; a session whose read
// failed is left out (its row keeps saying "…" until a retry reads it).
// A Msg with retry set is the end of a wait: the failed reads go again.
type Msg struct {
	tag   int
	ids   []string
	msgs  map[string][]wire.MessageWithParts
	retry bool
	pace  bool // the end of a pace step: more reads beyond what is shown may go
	bg    bool // a read nobody asked for
}

// Read is the sessions whose messages m carries.
func (m Msg) Read() []string {
	ids := make([]string, 0, len(m.msgs))
	for id := range m.msgs {
		ids = append(ids, id)
	}
	return ids
}

// Start begins a round over what st now lacks, at nowMS (the window's
// end); the replies of an older round will be dropped.
func (h *Reader) Start(st *model.State, o task.Server, nowMS int64) tea.Cmd {
	h.tag++
	h.queue, h.deferred = h.policy.split(st, nowMS)
	h.eager = nil
	if h.deferred != nil {
		h.eager = make(map[string]bool, len(h.queue))
		for _, id := range h.queue {
			h.eager[id] = true
		}
	}
	h.inFlight = map[string]bool{}
	h.reads, h.bg, h.loaded = 0, 0, 0
	h.failed, h.wait, h.waiting = nil, retryMin, false
	h.pacing = false
	h.refill()
	return h.Next(st, o)
}

// Done takes a reply off the round and returns the messages to fold in;
// ok is false for a reply of an older round. A failed read is left out:
// its row keeps saying "…", and it is read again after a wait (see Next).
func (h *Reader) Done(msg Msg) (msgs map[string][]wire.MessageWithParts, ok bool) {
	if msg.tag != h.tag {
		return nil, false
	}
	switch {
	case msg.retry:
		h.waiting = false
		h.queue = append(h.failed, h.queue...)
		h.failed = nil
		return nil, true
	case msg.pace:
		h.pacing = false
		h.refill()
		return nil, true
	}
	h.reads--
	if msg.bg {
		h.bg--
	}
	for _, id := range msg.ids {
		delete(h.inFlight, id)
		if _, read := msg.msgs[id]; !read {
			h.failed = append(h.failed, id)
			continue
		}
		h.loaded++
		h.seal = append(h.seal, id)
	}
	return msg.msgs, true
}

// Left is how many sessions this round still reads: every one whose
// history is unread, or, while the policy leaves the old ones until
// wanted, those it reads without being asked and the wanted ones on
// their way. Before the first round, nothing.
func (h *Reader) Left(st *model.State) int {
	switch {
	case h.tag == 0:
		return 0
	case h.eager == nil || h.all:
		return st.Tally().Unread
	}
	n := 0
	for id := range h.eager {
		if st.Session(id) != nil && !st.HasHistory(id) {
			n++
		}
	}
	for id := range h.inFlight {
		if !h.eager[id] {
			n++
		}
	}
	return n
}

// Next starts reads until Parallel are out: the wanted sessions first,
// then, at most Parallel-1 at once and as the pace allows, the queue (and
// the deferred ones when all is set), skipping sessions that got their
// history meanwhile (created or run while watched) or went away; with
// reads that failed, it starts the wait before they go again, longer
// each time they fail.
func (h *Reader) Next(st *model.State, o task.Server) tea.Cmd {
	cmds := []tea.Cmd{h.retryLater()}
	for h.reads < Parallel {
		chunk := h.wanted(st)
		if len(chunk) == 0 {
			break
		}
		h.reads++
		cmds = append(cmds, read(o, h.tag, chunk, false))
	}
	size := min(max(h.loaded/(4*Parallel), 1), chunkMax)
	for h.reads < Parallel && h.bg < Parallel-1 {
		n := h.budget(size)
		if n == 0 {
			if h.pending(st) {
				cmds = append(cmds, h.paceLater())
			}
			break
		}
		chunk := h.take(st, &h.queue, n)
		if len(chunk) == 0 && h.all {
			chunk = h.take(st, &h.deferred, n)
			if len(chunk) == 0 && h.again(st) {
				chunk = h.take(st, &h.deferred, n)
			}
		}
		if len(chunk) == 0 {
			break
		}
		h.spend(len(chunk))
		h.reads++
		h.bg++
		cmds = append(cmds, read(o, h.tag, chunk, true))
	}
	return tea.Batch(cmds...)
}

// again refills the deferred list, while a sort or filter needs every
// history, with the sessions unread although the round's lists are done:
// sealed ones that changed since (the model opened them again as
// unread). Without it the sort would wait on them for ever. It costs a
// look at the reads out unless there are such sessions.
func (h *Reader) again(st *model.State) bool {
	unread := st.Tally().Unread
	for id := range h.inFlight {
		if !st.HasHistory(id) {
			unread--
		}
	}
	for _, id := range h.failed {
		if !st.HasHistory(id) {
			unread--
		}
	}
	if unread <= 0 {
		return false
	}
	h.deferred = st.NeedsHistory()
	return true
}

// needs says whether id's history is still to read and not on its way.
func (h *Reader) needs(st *model.State, id string) bool {
	ss := st.Session(id)
	return ss != nil && ss.Known && !st.HasHistory(id) && !h.inFlight[id]
}

// wanted takes up to wantChunk wanted sessions that need a read and are
// not waiting for a retry.
func (h *Reader) wanted(st *model.State) []readReq {
	var chunk []readReq
	for _, id := range h.want {
		if len(chunk) == wantChunk {
			break
		}
		again := st.Sealed(id) && !h.inFlight[id] && slices.Contains(h.whole, id) // its calls are shown
		if (h.needs(st, id) || again) && !h.failing(id) {
			h.inFlight[id] = true
			chunk = append(chunk, readReq{id, st.Session(id).Directory})
		}
	}
	return chunk
}

func (h *Reader) failing(id string) bool {
	for _, f := range h.failed {
		if f == id {
			return true
		}
	}
	return false
}

// take takes up to size sessions off the front of q that still need a
// read, dropping those that do not.
func (h *Reader) take(st *model.State, q *[]string, size int) []readReq {
	var chunk []readReq
	for len(chunk) < size && len(*q) > 0 {
		id := (*q)[0]
		*q = (*q)[1:]
		if h.needs(st, id) && !h.failing(id) {
			h.inFlight[id] = true
			chunk = append(chunk, readReq{id, st.Session(id).Directory})
		}
	}
	return chunk
}

// retryLater starts the wait before the failed reads go again, unless
// none failed or a wait is already on.
func (h *Reader) retryLater() tea.Cmd {
	if len(h.failed) == 0 || h.waiting {
		return nil
	}
	h.waiting = true
	d, tag := h.wait, h.tag
	h.wait = min(2*h.wait, retryMax)
	return after(d, Msg{tag: tag, retry: true})
}

// after is room.After, the screen's timer (tests wait no real time): the
// root hands the Msg back after d.
var after = room.After

// readReq names a session to read and the project it lives in.
type readReq struct{ id, dir string }

// read reads a chunk of sessions' messages, one after the other;
// it captures plain values only.
func read(o task.Server, tag int, chunk []readReq, bg bool) tea.Cmd {
	return func() tea.Msg {
		msg := Msg{tag: tag, msgs: make(map[string][]wire.MessageWithParts, len(chunk)), bg: bg}
		for _, r := range chunk {
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			msgs, err := o.History(ctx, r.id, r.dir)
			cancel()
			msg.ids = append(msg.ids, r.id)
			if err == nil {
				msg.msgs[r.id] = msgs
			}
		}
		return msg
	}
}
