// Package history reads every session's messages in the background, so
// each row shows its real status, tools, tokens and time rather than a
// guess. The root starts a round after each snapshot and folds each reply
// into the model; this package only schedules the reads, as commands.
package history

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Parallel is how many message lists the screen reads at once:
// enough to hide a round trip, few enough not to flood a server that holds
// thousands of sessions.
const Parallel = 4

// timeout bounds one session's read.
const timeout = 30 * time.Second

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
	// loaded and total count this round, for the header.
	loaded, total int
}

// chunkMax is the most sessions one read Cmd takes in turn. Chunks
// start at one session, so the first rows fill in at once, and grow with
// what is loaded, so a big history is folded in a few hundred Updates
// (each recounts the tree) rather than one per session.
const chunkMax = 32

// Msg is the messages of a chunk of sessions; a session whose read
// failed is left out (its row keeps saying "…").
type Msg struct {
	tag  int
	ids  []string
	msgs map[string][]wire.MessageWithParts
}

// Start begins a round over what st now lacks; the replies of an older
// round will be dropped.
func (h *Reader) Start(st *model.State, o task.Server) tea.Cmd {
	h.tag++
	h.queue = st.NeedsHistory()
	h.inFlight = map[string]bool{}
	h.reads = 0
	h.loaded, h.total = 0, len(h.queue)
	return h.Next(st, o)
}

// Done takes a reply off the round and returns the messages to fold in;
// ok is false for a reply of an older round. A failed read is left out:
// its row keeps saying "…" and the next resync asks again.
func (h *Reader) Done(msg Msg) (msgs map[string][]wire.MessageWithParts, ok bool) {
	if msg.tag != h.tag {
		return nil, false
	}
	h.reads--
	for _, id := range msg.ids {
		delete(h.inFlight, id)
		h.loaded++
	}
	return msg.msgs, true
}

// Left is how many sessions of this round are still to be read.
func (h *Reader) Left() int { return h.total - h.loaded }

// Next starts reads until Parallel are out or the queue is
// empty, skipping sessions that got their history meanwhile (created or
// run while watched) or went away.
func (h *Reader) Next(st *model.State, o task.Server) tea.Cmd {
	var cmds []tea.Cmd
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
