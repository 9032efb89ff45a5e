package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/wire"
)

// historyParallel is how many message lists the screen reads at once:
// enough to hide a round trip, few enough not to flood a server that holds
// thousands of sessions.
const historyParallel = 4

// historyTimeout bounds one session's read.
const historyTimeout = 30 * time.Second

// history is the background reader of every session's messages, so each
// row shows its real status, tools, tokens and time rather than a guess.
// After each snapshot it reads, newest first and historyParallel at once,
// every session whose messages the model lacks (model.NeedsHistory); each
// list is folded in as it arrives. Replies of an older snapshot's round
// are dropped by tag: that snapshot's queue is gone.
type history struct {
	tag      int
	queue    []string
	inFlight map[string]bool
	reads    int // Cmds out
	// loaded and total count this round, for the header.
	loaded, total int
}

// historyChunk is the most sessions one read Cmd takes in turn. Chunks
// start at one session, so the first rows fill in at once, and grow with
// what is loaded, so a big history is folded in a few hundred Updates
// (each recounts the tree) rather than one per session.
const historyChunk = 32

// historyMsg is the messages of a chunk of sessions; a session whose read
// failed is left out (its row keeps saying "…").
type historyMsg struct {
	tag  int
	ids  []string
	msgs map[string][]wire.MessageWithParts
}

// startHistory begins a round over what the model now lacks.
func (m *Model) startHistory() tea.Cmd {
	if m.opts.Ops == nil || m.opts.Demo {
		return nil // a recording answers no reads beyond its snapshot
	}
	m.hist.tag++
	m.hist.queue = m.state.NeedsHistory()
	m.hist.inFlight = map[string]bool{}
	m.hist.reads = 0
	m.hist.loaded, m.hist.total = 0, len(m.hist.queue)
	return m.nextHistory()
}

// nextHistory starts reads until historyParallel are out or the queue is
// empty, skipping sessions that got their history meanwhile (created or
// run while watched) or went away.
func (m *Model) nextHistory() tea.Cmd {
	var cmds []tea.Cmd
	size := min(max(m.hist.loaded/(4*historyParallel), 1), historyChunk)
	for m.hist.reads < historyParallel && len(m.hist.queue) > 0 {
		var chunk []readReq
		for len(chunk) < size && len(m.hist.queue) > 0 {
			id := m.hist.queue[0]
			m.hist.queue = m.hist.queue[1:]
			ss := m.state.Session(id)
			if ss == nil || m.state.HasHistory(id) {
				m.hist.loaded++
				continue
			}
			m.hist.inFlight[id] = true
			chunk = append(chunk, readReq{id, ss.Directory})
		}
		if len(chunk) > 0 {
			m.hist.reads++
			cmds = append(cmds, readHistory(m.opts.Ops, m.hist.tag, chunk))
		}
	}
	return tea.Batch(cmds...)
}

// readReq names a session to read and the project it lives in.
type readReq struct{ id, dir string }

// readHistory reads a chunk of sessions' messages, one after the other;
// it captures plain values only.
func readHistory(o Ops, tag int, chunk []readReq) tea.Cmd {
	return func() tea.Msg {
		msg := historyMsg{tag: tag, msgs: make(map[string][]wire.MessageWithParts, len(chunk))}
		for _, r := range chunk {
			ctx, cancel := context.WithTimeout(context.Background(), historyTimeout)
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

// updateHistory folds one reply in and starts the next read. A failed
// read leaves the row saying "…": the next resync asks again.
func (m Model) updateHistory(msg historyMsg) (tea.Model, tea.Cmd) {
	if msg.tag != m.hist.tag {
		return m, nil
	}
	m.hist.reads--
	for _, id := range msg.ids {
		delete(m.hist.inFlight, id)
		m.hist.loaded++
	}
	if len(msg.msgs) > 0 {
		m.state.ApplyMessages(msg.msgs)
		m.stateChanged()
	}
	return m, m.nextHistory()
}

// historyLeft is how many sessions of this round are still to be read.
func (m Model) historyLeft() int { return m.hist.total - m.hist.loaded }
