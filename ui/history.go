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
	// loaded and total count this round, for the header.
	loaded, total int
}

// historyMsg is one session's messages.
type historyMsg struct {
	tag  int
	id   string
	msgs []wire.MessageWithParts
	err  error
}

// startHistory begins a round over what the model now lacks.
func (m *Model) startHistory() tea.Cmd {
	if m.opts.Ops == nil || m.opts.Demo {
		return nil // a recording answers no reads beyond its snapshot
	}
	m.hist.tag++
	m.hist.queue = m.state.NeedsHistory()
	m.hist.inFlight = map[string]bool{}
	m.hist.loaded, m.hist.total = 0, len(m.hist.queue)
	return m.nextHistory()
}

// nextHistory starts reads until historyParallel are out or the queue is
// empty, skipping sessions that got their history meanwhile (created or
// run while watched) or went away.
func (m *Model) nextHistory() tea.Cmd {
	var cmds []tea.Cmd
	for len(m.hist.inFlight) < historyParallel && len(m.hist.queue) > 0 {
		id := m.hist.queue[0]
		m.hist.queue = m.hist.queue[1:]
		ss := m.state.Session(id)
		if ss == nil || m.state.HasHistory(id) {
			m.hist.loaded++
			continue
		}
		m.hist.inFlight[id] = true
		cmds = append(cmds, readHistory(m.opts.Ops, m.hist.tag, id, ss.Directory))
	}
	return tea.Batch(cmds...)
}

// readHistory reads one session's messages; it captures plain values only.
func readHistory(o Ops, tag int, id, dir string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), historyTimeout)
		defer cancel()
		msgs, err := o.History(ctx, id, dir)
		return historyMsg{tag: tag, id: id, msgs: msgs, err: err}
	}
}

// updateHistory folds one reply in and starts the next read. A failed
// read leaves the row saying "…": the next resync asks again.
func (m Model) updateHistory(msg historyMsg) (tea.Model, tea.Cmd) {
	if msg.tag != m.hist.tag {
		return m, nil
	}
	delete(m.hist.inFlight, msg.id)
	m.hist.loaded++
	if msg.err == nil {
		m.state.ApplyMessages(map[string][]wire.MessageWithParts{msg.id: msg.msgs})
		m.stateChanged()
	}
	return m, m.nextHistory()
}

// historyLeft is how many sessions of this round are still to be read.
func (m Model) historyLeft() int { return m.hist.total - m.hist.loaded }
