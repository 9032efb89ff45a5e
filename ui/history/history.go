// Package history reads every session's messages in the background, so
// each row shows its real status, tools, tokens and time rather than a
// guess. The root starts a round after each snapshot and folds each reply
// into the model; this package only schedules the reads, as commands. A
// read that fails is tried again after a wait that grows with each
// failure, until every row is read or the next snapshot starts over.
package history

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/room"
)

// Parallel is how many message lists the screen reads at once:
// enough to hide a round trip, few enough not to flood a server that holds
// thousands of sessions.
const Parallel = 4

// timeout bounds one session's read.
const timeout = 30 * time.Second

// The wait before failed reads are tried again: retryMin, doubled each
// time, up to retryMax. A new round (the next snapshot) starts afresh.
const (
	retryMin = time.Second
	retryMax = 30 * time.Second
)

// Reader is the background reader of every session's messages, so each
// row shows its real status, tools, tokens and time rather than a guess.
// After each snapshot it reads, newest first and Parallel at once,
// every session whose messages the model lacks (model.NeedsHistory); each
// list is folded in as it arrives. Replies of an older snapshot's round
// are dropped by tag: that snapshot's queue is gone.
type Reader struct {
	tag      int
	queue    []string
	inFlight map[string]bool
	reads    int // Cmds out
	// loaded and total count this round, for the header: a session whose
	// read failed is not loaded, and still counts as loading.
	loaded, total int
	// failed are the sessions whose read failed, to read again once wait
	// has passed (a timer is out while waiting).
	failed  []string
	wait    time.Duration
	waiting bool
}

// chunkMax is the most sessions one read Cmd takes in turn. Chunks
// start at one session, so the first rows fill in at once, and grow with
// what is loaded, so a big history is folded in a few hundred Updates
// (each recounts the tree) rather than one per session.
const chunkMax = 32

// Msg is the messages of a chunk of sessions; a session whose read
// failed is left out (its row keeps saying "…" until a retry reads it).
// A Msg with retry set is the end of a wait: the failed reads go again.
type Msg struct {
	tag   int
	ids   []string
	msgs  map[string][]wire.MessageWithParts
	retry bool
}

// Read is the sessions whose messages m carries.
func (m Msg) Read() []string {
	ids := make([]string, 0, len(m.msgs))
	for id := range m.msgs {
		ids = append(ids, id)
	}
	return ids
}

// Start begins a round over what st now lacks; the replies of an older
// round will be dropped.
func (h *Reader) Start(st *model.State, o task.Server) tea.Cmd {
	h.tag++
	h.queue = st.NeedsHistory()
	h.inFlight = map[string]bool{}
	h.reads = 0
	h.loaded, h.total = 0, len(h.queue)
	h.failed, h.wait, h.waiting = nil, retryMin, false
	return h.Next(st, o)
}

// Done takes a reply off the round and returns the messages to fold in;
// ok is false for a reply of an older round. A failed read is left out:
// its row keeps saying "…", and it is read again after a wait (see Next).
func (h *Reader) Done(msg Msg) (msgs map[string][]wire.MessageWithParts, ok bool) {
	if msg.tag != h.tag {
		return nil, false
	}
	if msg.retry {
		h.waiting = false
		h.queue = append(h.failed, h.queue...)
		h.failed = nil
		return nil, true
	}
	h.reads--
	for _, id := range msg.ids {
		delete(h.inFlight, id)
		if _, read := msg.msgs[id]; !read {
			h.failed = append(h.failed, id)
			continue
		}
		h.loaded++
	}
	return msg.msgs, true
}

// Left is how many sessions of this round are still to be read.
func (h *Reader) Left() int { return h.total - h.loaded }

// Next starts reads until Parallel are out or the queue is
// empty, skipping sessions that got their history meanwhile (created or
// run while watched) or went away; with reads that failed, it starts the
// wait before they go again, longer each time they fail again.
func (h *Reader) Next(st *model.State, o task.Server) tea.Cmd {
	cmds := []tea.Cmd{h.retryLater()}
	size := min(max(h.loaded/(4*Parallel), 1), chunkMax)
	for h.reads < Parallel && len(h.queue) > 0 {
		var chunk []readReq
		for len(chunk) < size && len(h.queue) > 0 {
			id := h.queue[0]
			h.queue = h.queue[1:]
			ss := st.Session(id)
			if ss == nil || st.HasHistory(id) {
				h.loaded++
				continue
			}
			h.inFlight[id] = true
			chunk = append(chunk, readReq{id, ss.Directory})
		}
		if len(chunk) > 0 {
			h.reads++
			cmds = append(cmds, read(o, h.tag, chunk))
		}
	}
	return tea.Batch(cmds...)
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
func read(o task.Server, tag int, chunk []readReq) tea.Cmd {
	return func() tea.Msg {
		msg := Msg{tag: tag, msgs: make(map[string][]wire.MessageWithParts, len(chunk))}
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
