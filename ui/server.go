package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/history"
	"github.com/octop-dev/octop/ui/inflight"
	"github.com/octop-dev/octop/ui/room"
)

// This file folds the server's data into the screen: event batches, the
// snapshot after a reconnect, the health probe, and what depends on the
// whole tree (counts, follow, the selection).

// updateServer folds the server's data into the state. Events come in
// batches (see feed.Batcher) so a burst is one pass here and one render.
func (m Model) updateServer(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case EventsMsg:
		m.applyEvents(msg)
	case ResetMsg:
		m.state = model.New()
		m.tree.SetState(m.state)
		m.detail.SetState(m.state)
		m.stateChanged()
	case wire.ConnState:
		if msg.State != wire.Connected && m.connKnown && m.conn.State == wire.Connected {
			m.lostAt = m.opts.Clock()
			m.syncClock()
		}
		m.conn, m.connKnown = msg, true
		if msg.State == wire.Connected && m.opts.Server != nil {
			// The server may have been restarted, as another version.
			m.healthTag++
			return m, inflight.Health(m.opts.Server, m.healthTag)
		}
	case wire.ResyncNeeded:
		return m.resync()
	case inflight.FirstReadMsg:
		if m.in.Tag() > 0 {
			return m, nil // the stream's resync read it
		}
		m.healthTag++
		next, cmd := m.resync()
		return next, tea.Batch(cmd, inflight.Health(m.opts.Server, m.healthTag))
	case inflight.SnapshotReply:
		if m.applySnapshot(msg) {
			return m, m.startHistory()
		}
	case inflight.HealthReply:
		if msg.Tag == m.healthTag && msg.Err == nil {
			m.version = msg.Health.Version
		}
	case wire.DecodeError:
		return m.flash(FlashMsg{Text: "skipped a malformed event: " + msg.Error(), Error: true})
	}
	return m, nil
}

// applyEvents applies a batch through the intake, which keeps its events
// for replay over a snapshot still on its way.
func (m *Model) applyEvents(batch EventsMsg) {
	m.tellTime()
	if m.version == "" {
		for _, env := range batch {
			if c, ok := env.Event.(wire.SessionCreated); ok {
				// Sessions carry the server's version: enough for the
				// header until the health probe answers (the demo has
				// no server to ask).
				m.version = c.Info.Version
			}
		}
	}
	m.in.Events(m.state, batch)
	// The panes read the new time too, not the last tick's: a replay's
	// clock goes back at its loop point, and a run of the new pass must
	// not show the old pass's end as its elapsed time until the next tick.
	m.now = m.opts.Clock()
	m.syncClock()
	m.stateChanged()
	m.observe(batch)
}

// resync starts a new snapshot read after the stream reconnected.
func (m Model) resync() (tea.Model, tea.Cmd) {
	if m.opts.Server == nil {
		return m, nil
	}
	return m, inflight.Snapshot(m.opts.Server, m.in.Resync())
}

// applySnapshot lays the newest snapshot under the live state (see
// intake.Intake.Snapshot). It reports whether it did.
func (m *Model) applySnapshot(msg inflight.SnapshotReply) bool {
	if msg.Tag != m.in.Tag() {
		return false // a newer read is on its way; this one is stale
	}
	m.snapErr = msg.Err
	m.tellTime()
	snap := msg.Take()
	if !m.in.Snapshot(m.state, msg.Tag, snap, msg.Err) {
		return false
	}
	m.asksUnread = snap.Unread()
	m.now = m.opts.Clock()
	m.lostAt = time.Time{} // re-read: current again
	m.syncClock()
	m.stateChanged()
	return true
}

// observe hands a room that follows the live tree (room.Observer) the
// model, the batch's events and the time.
func (m *Model) observe(batch EventsMsg) {
	o, ok := m.dialog.(room.Observer)
	if !ok {
		return
	}
	if d := o.Observe(m.state, batch.Events(), m.now.UnixMilli()); d != nil {
		m.dialog = d
	}
}

// tellTime gives the model the clock's time, for the grace of a run that
// stopped without a word on how (model.SetNow), and says whether that
// changed a state: one stopping a moment ago reads how it ended now.
func (m *Model) tellTime() bool {
	v := m.state.Version()
	m.state.SetNow(m.opts.Clock().UnixMilli())
	return m.state.Version() != v
}

// stateChanged recomputes what depends on the whole tree: the rows, the
// header's counts, follow's pick. Once per batch, never per frame.
func (m *Model) stateChanged() {
	m.tree.Sync()
	m.applyPendingSelect()
	before := m.counts
	m.counts = m.tree.Tally()
	if (before.Waiting > 0) != (m.counts.Waiting > 0) {
		m.layout() // the footer offers the inbox only while someone waits
	}
	if m.follow {
		m.followBusiest()
	}
	m.syncDetail()
}

// followQuiet is how long follow stays on a busy session that shows no
// sign of life before it moves on.
const followQuiet = 5 * time.Second

// followBusiest keeps the selected session while it is busy and has shown
// activity in the last followQuiet; otherwise it selects the busy session
// that was active most recently. Parallel children thus do not take the
// selection from each other at every event.
func (m *Model) followBusiest() {
	if id := m.tree.Selected(); id != "" && m.state.StateOf(id).Kind == model.KindRunning {
		if s := m.state.Session(id); s != nil && m.now.UnixMilli()-s.LastActive < followQuiet.Milliseconds() {
			return
		}
	}
	if best := m.tree.Busiest(); best != "" && best != m.tree.Selected() {
		m.tree.Select(best)
	}
}

// syncDetail points the detail pane at the selection and rolls up the
// selected subtree's tokens and cost for the header.
func (m *Model) syncDetail() {
	id := m.tree.Selected()
	m.detail.SetSession(id)
	m.subtree = model.Counts{}
	if id != "" {
		m.subtree = m.state.Counts(id)
	}
}

// selectSession selects msg.ID now if the tree has it, else remembers it.
func (m Model) selectSession(msg SelectMsg) Model {
	m.pendingSelect = msg.ID
	m.applyPendingSelect()
	return m
}

// applyPendingSelect selects the remembered session once the tree shows
// it. Follow mode is switched off: the person asked to look at this one.
func (m *Model) applyPendingSelect() {
	if m.pendingSelect == "" || m.state.Session(m.pendingSelect) == nil {
		return
	}
	if m.tree.Select(m.pendingSelect) {
		m.pendingSelect = ""
		m.follow = false
		m.syncDetail()
	}
}

// watched feeds msg, which next has already applied, to the watchdog (see
// ui/notices), and takes its marks' count, notice and commands.
func watched(msg tea.Msg, next tea.Model, cmd tea.Cmd) (tea.Model, tea.Cmd) {
	m, ok := next.(Model)
	if !ok || m.wd == nil {
		return next, cmd
	}
	now := m.now.UnixMilli()
	var notice string
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case EventsMsg:
		notice, cmds = m.wd.Events(m.state, msg.Events(), now)
	case wire.ConnState:
		notice, cmds = m.wd.Conn(m.state, msg, now)
	case inflight.SnapshotReply:
		if msg.Tag != m.in.Tag() || msg.Err != nil {
			return m, cmd
		}
		notice, cmds = m.wd.Resync(m.state, now)
	case history.Msg:
		notice, cmds = m.wd.Learn(m.state, msg.Read(), now)
	case tickMsg:
		notice, cmds = m.wd.Tick(m.state, now)
	}
	m.runawayN = m.wd.Running(m.state) // marks and states change only here: once per step, not per frame
	if notice != "" {
		m.notice = notice
	}
	if len(cmds) == 0 {
		return m, cmd
	}
	return m, tea.Batch(append([]tea.Cmd{cmd}, cmds...)...)
}

// startHistory begins a round of history reads over what the model lacks.
func (m *Model) startHistory() tea.Cmd {
	if !m.readsHistory() {
		return nil
	}
	return m.hist.Start(m.state, m.opts.Server, m.now.UnixMilli())
}

// wantHistory tells the history reader, after every step, what the screen
// shows (the selection, the rows in view, what a room asks for) and
// whether its sort or filter needs every history: a row scrolled into
// view is read then.
func wantHistory(next tea.Model, cmd tea.Cmd) (tea.Model, tea.Cmd) {
	nm, ok := next.(Model)
	if !ok || !nm.readsHistory() {
		return next, cmd
	}
	if more := nm.hist.Want(nm.state, nm.opts.Server, nm.wanted()); more != nil {
		return nm, tea.Batch(cmd, more)
	}
	return nm, cmd
}

// updateHistory folds one history reply in, for the watchdog too, and starts the next read.
func (m Model) updateHistory(msg history.Msg) (tea.Model, tea.Cmd) {
	msgs, ok := m.hist.Done(msg)
	if !ok {
		return m, nil
	}
	if len(msgs) > 0 {
		m.tellTime()
		m.state.ApplyMessages(msgs)
		m.stateChanged()
	}
	return watched(msg, m, m.hist.Next(m.state, m.opts.Server))
}
