package ui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/intent"
	"github.com/octop-dev/octop/ui/styles"
	"github.com/octop-dev/octop/wire"
)

// Update routes a message to the handler of its family: keys, mouse,
// server data, the clock, or action replies. Nothing here does I/O; every
// call to the server leaves as a tea.Cmd.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.BackgroundColorMsg:
		m.applyStyles(styles.New(msg.IsDark(), m.opts.NoColor))
		m.layout()
		return m, nil
	case tea.KeyPressMsg:
		m.notice = "" // seen
		return m.updateKey(msg)
	case tea.PasteMsg:
		if m.dialog != nil {
			return m.updateDialog(msg)
		}
		if m.filtering {
			return m.updateFilter(msg)
		}
		return m, nil
	case tea.MouseClickMsg:
		return m.updateClick(msg.Mouse()), nil
	case tea.MouseWheelMsg:
		return m.updateWheel(msg.Mouse()), nil
	case EventsMsg, wire.ConnState, wire.ResyncNeeded, wire.DecodeError,
		snapshotMsg, healthMsg, ResetMsg:
		next, cmd := m.updateServer(msg)
		return watched(msg, next, cmd)
	case tickMsg:
		next, cmd := m.updateTick()
		return watched(msg, next, cmd)
	case FlashMsg:
		return m.flash(msg)
	case SelectMsg:
		return m.selectSession(msg), nil
	case flashExpiredMsg:
		if msg.tag == m.flashTag {
			m.flashMsg = FlashMsg{}
		}
		return m, nil
	case stampedMsg:
		return m.startRequest(msg)
	case intent.Request:
		return m.startRequest(stampedMsg{gen: m.dialogGen, req: msg})
	case replyMsg:
		return m.updateReply(msg)
	}
	// Anything else is an action's own reply, which belongs to the open
	// dialog, or the filter input's cursor blinking.
	switch {
	case m.dialog != nil:
		return m.updateDialog(msg)
	case m.filtering:
		var cmd tea.Cmd
		m.filter, cmd = m.filter.Update(msg)
		return m, cmd
	}
	return m, nil
}

// updateKey handles a key press. ctrl+c quits from anywhere; esc closes
// an overlay at once, cancelling its request in flight. Then an open
// dialog takes every key; then the filter input while it is being typed;
// then the screen's keys; then the focused pane's.
func (m Model) updateKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	esc := msg.String() == "esc"
	switch {
	case msg.String() == "ctrl+c":
		m.cancelRequests(true)
		return m, tea.Quit
	case m.dialog != nil && esc && m.dialogBusy():
		m.closeDialog() // whatever the dialog would do, it must not wait
		return m, nil
	case m.dialog != nil:
		return m.updateDialog(msg)
	case m.filtering:
		return m.updateFilter(msg)
	case m.help.ShowAll && esc:
		m.help.ShowAll = false
		m.layout()
		return m, nil
	}
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m, tea.Quit
	case key.Matches(msg, k.Help):
		m.help.ShowAll = !m.help.ShowAll
		m.layout()
		return m, nil
	case key.Matches(msg, k.Tab):
		m.setFocus(1 - m.focus)
		return m, nil
	case key.Matches(msg, k.Filter):
		m.filtering = true
		m.filter.SetValue(m.tree.Filter())
		m.filter.CursorEnd()
		m.layout()
		return m, m.filter.Focus()
	case key.Matches(msg, k.ClearFilter):
		if m.tree.Filter() != "" {
			m.setFilter("")
		}
		return m, nil
	case key.Matches(msg, k.Sort):
		m.tree.SetSort(m.tree.Sort().Next())
		return m, nil
	case key.Matches(msg, k.Follow):
		m.follow = !m.follow
		if m.follow {
			m.followBusiest()
			m.syncDetail()
		}
		return m, nil
	}
	for _, r := range k.actionFor() {
		if key.Matches(msg, r.b) {
			return m.startAction(r.a)
		}
	}
	if m.focus == paneDetail {
		var cmd tea.Cmd
		m.detail, cmd = m.detail.Update(msg)
		return m, cmd
	}
	before := m.tree.Selected()
	var cmd tea.Cmd
	m.tree, cmd = m.tree.Update(msg)
	if m.tree.Selected() != before {
		// Moving by hand means the person wants to look around: follow
		// would snatch the cursor back on the next event.
		m.follow = false
	}
	m.syncDetail()
	return m, cmd
}

// updateFilter feeds the filter input. The tree filters as you type; enter
// keeps the filter and returns to the tree, esc clears it.
func (m Model) updateFilter(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "esc":
			m.filtering = false
			m.filter.Blur()
			m.setFilter("")
			return m, nil
		case "enter":
			m.filtering = false
			m.filter.Blur()
			m.layout()
			return m, nil
		}
	}
	var cmd tea.Cmd
	m.filter, cmd = m.filter.Update(msg)
	if v := m.filter.Value(); v != m.tree.Filter() {
		m.tree.SetFilter(v)
		m.syncDetail()
	}
	return m, cmd
}

func (m *Model) setFilter(f string) {
	m.filter.SetValue(f)
	m.tree.SetFilter(f)
	m.layout()
	m.syncDetail()
}

// updateDialog hands msg to the open dialog. Its intents are stamped with
// the dialog's generation; if it closed, its requests are cancelled.
func (m Model) updateDialog(msg tea.Msg) (Model, tea.Cmd) {
	d, cmd := m.dialog.Update(msg)
	if d == nil {
		m.closeDialog()
		return m, cmd
	}
	m.dialog = d
	return m, stamp(m.dialogGen, cmd)
}

// updateClick selects the row under the pointer and focuses its pane.
func (m Model) updateClick(p tea.Mouse) Model {
	if m.dialog != nil || p.Button != tea.MouseLeft {
		return m
	}
	l := m.areas()
	switch {
	case l.tree.contains(p.X, p.Y):
		m.setFocus(paneTree)
		if i := m.tree.Offset() + p.Y - l.tree.y; i < len(m.tree.Rows()) {
			m.tree.SelectIndex(i)
			m.follow = false
		}
		m.syncDetail()
	case l.detail.contains(p.X, p.Y):
		m.setFocus(paneDetail)
	}
	return m
}

// updateWheel scrolls the pane under the pointer.
func (m Model) updateWheel(p tea.Mouse) Model {
	if m.dialog != nil {
		return m
	}
	var step int
	switch p.Button {
	case tea.MouseWheelUp:
		step = -3
	case tea.MouseWheelDown:
		step = 3
	default:
		return m
	}
	l := m.areas()
	switch {
	case l.detail.contains(p.X, p.Y):
		m.detail.ScrollBy(step)
	default:
		before := m.tree.Selected()
		m.tree.Scroll(step)
		if m.tree.Selected() != before {
			m.follow = false
			m.syncDetail()
		}
	}
	return m
}

// maxSnapEvents bounds the events kept for replay over one snapshot.
const maxSnapEvents = 50000

// updateServer folds the server's data into the state. Events come in
// batches (see Batcher) so a burst is one pass here and one render.
func (m Model) updateServer(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case EventsMsg:
		for _, env := range msg {
			if env.Event == nil {
				continue
			}
			if c, ok := env.Event.(wire.SessionCreated); ok {
				m.snapRaced = true
				if m.version == "" {
					// Sessions carry the server's version: enough for the
					// header until the health probe answers (the demo has
					// no server to ask).
					m.version = c.Info.Version
				}
			}
			m.state.Apply(env.Event)
			if m.snapPending {
				if len(m.snapEvents) < maxSnapEvents {
					m.snapEvents = append(m.snapEvents, env.Event)
				} else {
					m.snapRaced = true // too many to replay: at least keep every session
				}
			}
		}
		m.now = m.opts.Clock()
		m.stateChanged()
		m.observe(msg)
	case ResetMsg:
		m.state = model.New()
		m.tree.SetState(m.state)
		m.detail.SetState(m.state)
		m.stateChanged()
	case wire.ConnState:
		m.conn, m.connKnown = msg, true
		if msg.State == wire.Connected && m.opts.Ops != nil {
			// The server may have been restarted, as another version.
			m.healthTag++
			return m, probeHealth(m.opts.Ops, m.healthTag)
		}
	case wire.ResyncNeeded:
		if m.opts.Ops == nil {
			return m, nil
		}
		m.snapTag++
		m.snapRaced = false
		m.snapPending, m.snapEvents = true, nil
		return m, fetchSnapshot(m.opts.Ops, m.snapTag)
	case snapshotMsg:
		if msg.tag != m.snapTag {
			return m, nil // a newer fetch is on its way; this one is stale
		}
		m.snapErr = msg.err
		replay := m.snapEvents
		m.snapPending, m.snapEvents = false, nil
		if msg.err == nil {
			if m.snapRaced {
				msg.snap.Complete = false
			}
			m.state.ApplySnapshot(msg.snap)
			for _, ev := range replay {
				m.state.Apply(ev)
			}
			m.now = m.opts.Clock()
			m.stateChanged()
		}
	case healthMsg:
		if msg.tag == m.healthTag && msg.err == nil {
			m.version = msg.health.Version
		}
	case wire.DecodeError:
		return m.flash(FlashMsg{Text: "skipped a malformed event: " + msg.Error(), Error: true})
	}
	return m, nil
}

// stateChanged recomputes what depends on the whole tree: the rows, the
// header's counts, follow's pick. Once per batch, never per frame.
// observe hands a room that follows the live tree (intent.Observer) the
// model, the batch's events and the time.
func (m *Model) observe(batch EventsMsg) {
	o, ok := m.dialog.(intent.Observer)
	if !ok {
		return
	}
	var evs []wire.Event
	for _, env := range batch {
		if env.Event != nil {
			evs = append(evs, env.Event)
		}
	}
	if d := o.Observe(m.state, evs, m.now.UnixMilli()); d != nil {
		m.dialog = d
	}
}

func (m *Model) stateChanged() {
	m.tree.Sync()
	m.applyPendingSelect()
	before := m.counts
	m.counts = m.countAll()
	if (before.waiting > 0) != (m.counts.waiting > 0) {
		m.layout() // the footer offers the inbox only while someone waits
	}
	if m.follow {
		m.followBusiest()
	}
	m.syncDetail()
}

// countAll walks the tree once for the header's counts.
func (m Model) countAll() screenCounts {
	var c screenCounts
	m.walk(func(id string, _ *model.Session) {
		switch m.state.Display(id) {
		case model.DisplayBusy, model.DisplayRetry:
			c.running++
		case model.DisplayWaiting:
			c.waiting++
		case model.DisplayError:
			c.failed++
		}
	})
	return c
}

// followBusiest selects the busy session that was active most recently.
func (m *Model) followBusiest() {
	best, bestAt := "", int64(-1)
	m.walk(func(id string, s *model.Session) {
		if m.state.Display(id) == model.DisplayBusy && s.LastActive > bestAt {
			best, bestAt = id, s.LastActive
		}
	})
	if best != "" && best != m.tree.Selected() {
		m.tree.Select(best)
	}
}

// walk visits every session reachable from the roots.
func (m Model) walk(fn func(id string, s *model.Session)) {
	var visit func(id string)
	visit = func(id string) {
		s := m.state.Session(id)
		if s == nil {
			return
		}
		fn(id, s)
		for _, c := range s.Children {
			visit(c)
		}
	}
	for _, id := range m.state.Roots() {
		visit(id)
	}
}

// syncDetail points the detail pane at the selection and rolls up the
// selected subtree's tokens and cost for the header.
func (m *Model) syncDetail() {
	id := m.tree.Selected()
	m.detail.SetSession(id)
	m.totals = model.Totals{}
	if id != "" {
		m.totals = m.state.Subtree(id)
	}
}

// updateTick advances the clock and the spinner, then schedules the next
// tick: fast only while something on screen moves.
func (m Model) updateTick() (tea.Model, tea.Cmd) {
	m.now = m.opts.Clock()
	m.frame++
	m.syncClock()
	m.observe(nil)
	next := slowTick
	if m.counts.running > 0 || (m.connKnown && m.conn.State != wire.Connected) {
		next = fastTick
	}
	return m, tick(next)
}

// flash shows a notice in the footer and schedules its removal.
func (m Model) flash(f FlashMsg) (Model, tea.Cmd) {
	m.flashMsg = f
	m.flashTag++
	tag := m.flashTag
	return m, tea.Tick(flashFor, func(time.Time) tea.Msg { return flashExpiredMsg{tag: tag} })
}

func (m *Model) setFocus(p pane) {
	m.focus = p
	m.tree.SetFocused(p == paneTree)
	m.detail.SetFocused(p == paneDetail)
	m.layout() // the help shows the focused pane's keys
}
