package ui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/sanitize"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/history"
	"github.com/octop-dev/octop/ui/inflight"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

// tickMsg drives the spinner, elapsed times and countdowns; nextTick makes it.
type tickMsg struct{}

func nextTick(time.Time) tea.Msg { return tickMsg{} }

// flashExpiredMsg clears the flash it was scheduled for (and no later one).
type flashExpiredMsg struct{ tag int }

// Update routes a message (route), then has the history reader read what
// the screen now shows. Nothing here does I/O: every call to the server
// leaves as a tea.Cmd.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) { return wantHistory(m.route(msg)) }

// route hands msg to its family's handler: keys, mouse, server data, the
// clock, or action replies.
func (m Model) route(msg tea.Msg) (tea.Model, tea.Cmd) {
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
		m.wd.Seen()
		return m.updateKey(msg)
	case tea.PasteMsg:
		msg.Content = sanitize.Text(msg.Content) // a clipboard may hold what a server wrote
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
		inflight.SnapshotReply, inflight.HealthReply, ResetMsg, inflight.FirstReadMsg:
		next, cmd := m.updateServer(msg)
		return watched(msg, next, cmd)
	case history.Msg:
		return m.updateHistory(msg)
	case tickMsg:
		next, cmd := m.updateTick()
		return watched(msg, next, cmd)
	case FlashMsg:
		return m.flash(msg)
	case SelectMsg:
		return m.selectSession(msg), nil
	case ShownMsg:
		m.shown = shown{on: true, selected: msg.Selected, ids: msg.IDs}
		return m, nil
	case PlaybackMsg:
		if m.playback != "ended" {
			m.playback = msg.State
		}
		return m, nil
	case flashExpiredMsg:
		if msg.tag == m.flashTag {
			m.flashMsg = FlashMsg{}
		}
		return m, nil
	case room.AfterMsg: // a room's timer
		return m, m.opts.Timer.After(msg.In, func(time.Time) tea.Msg { return msg.Msg })
	case inflight.Stamped:
		return m.startRequest(msg)
	case task.Request:
		return m.startRequest(inflight.Stamped{Gen: m.dialogGen, Req: msg})
	case inflight.Reply:
		return m.updateReply(msg)
	}
	// Anything else is an action's own reply, which belongs to the open
	// dialog, or the filter input's cursor blinking.
	switch {
	case m.dialog != nil:
		return m.updateDialog(msg)
	case m.filtering:
		var cmd tea.Cmd
		*m.filter, cmd = m.filter.Update(msg)
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
	if nm, cmd, ok := m.screenKey(msg); ok {
		return nm, cmd
	}
	for _, r := range m.keys.Actions() {
		if key.Matches(msg, r.Key) {
			return m.startAction(r.Action)
		}
	}
	return m.paneKey(msg)
}

// screenKey handles the screen's own keys; ok is false for any other.
func (m Model) screenKey(msg tea.KeyPressMsg) (_ Model, _ tea.Cmd, ok bool) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m, tea.Quit, true
	case key.Matches(msg, k.Help):
		m.help.ShowAll = !m.help.ShowAll
		m.layout()
	case key.Matches(msg, k.Tab):
		m.setFocus(1 - m.focus)
	case key.Matches(msg, k.Filter):
		m.filtering = true
		m.filter.SetValue(m.tree.Filter())
		m.filter.CursorEnd()
		m.layout()
		return m, m.filter.Focus(), true
	case key.Matches(msg, k.ClearFilter):
		if m.tree.Filter() != "" {
			m.SetFilter("")
		}
	case key.Matches(msg, k.Sort):
		m.tree.SetSort(m.tree.Sort().Next())
		fm, cmd := m.flash(FlashMsg{Text: "sort: " + m.tree.Sort().String() + " first"}) // not an older notice
		return fm, cmd, true
	case key.Matches(msg, k.Follow):
		m.follow = !m.follow
		if m.follow {
			m.followBusiest()
			m.syncDetail()
		}
	default:
		return m, nil, false
	}
	return m, nil, true
}

// paneKey hands a key to the focused pane.
func (m Model) paneKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
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
			m.SetFilter("")
			return m, nil
		case "enter":
			m.filtering = false
			m.filter.Blur()
			m.layout()
			return m, nil
		}
	}
	var cmd tea.Cmd
	*m.filter, cmd = m.filter.Update(msg)
	if v := m.filter.Value(); v != m.tree.Filter() {
		m.tree.SetFilter(v)
		m.counts = m.tree.Tally()
		m.syncDetail()
	}
	return m, cmd
}

// SetFilter filters the tree to f, as if typed after /.
func (m *Model) SetFilter(f string) {
	m.filter.SetValue(f)
	m.tree.SetFilter(f)
	m.counts = m.tree.Tally()
	m.layout()
	m.syncDetail()
}

// updateDialog hands msg to the open dialog. Its requests are stamped with
// the dialog's generation; if it closed, its requests are cancelled.
func (m Model) updateDialog(msg tea.Msg) (Model, tea.Cmd) {
	d, cmd := m.dialog.Update(msg)
	if d == nil {
		m.closeDialog()
		return m, cmd
	}
	m.dialog = d
	return m, inflight.Stamp(m.dialogGen, cmd)
}

// updateClick selects the row under the pointer and focuses its pane.
func (m Model) updateClick(p tea.Mouse) Model {
	if m.dialog != nil || p.Button != tea.MouseLeft {
		return m
	}
	l := m.areas()
	switch {
	case l.tree.Contains(p.X, p.Y):
		m.setFocus(paneTree)
		if i := m.tree.Offset() + p.Y - l.tree.Y; i < len(m.tree.Rows()) {
			m.tree.SelectIndex(i)
			m.follow = false
		}
		m.syncDetail()
	case l.detail.Contains(p.X, p.Y):
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
	case l.detail.Contains(p.X, p.Y):
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

// updateTick advances the clock and the spinner, then schedules the next
// tick: fast only while the connection's countdown runs.
func (m Model) updateTick() (tea.Model, tea.Cmd) {
	m.now = m.opts.Clock()
	newSecond := m.now.Unix() != m.tickSecond
	if newSecond {
		m.tickSecond = m.now.Unix()
		m.frame++
	}
	m.syncClock()
	if m.tellTime() {
		m.stateChanged()
	}
	if m.follow && newSecond {
		m.followBusiest() // the followed session may have gone quiet
		m.syncDetail()
	}
	m.sweep()
	m.observe(nil)
	next := slowTick
	if m.connKnown && m.conn.State != wire.Connected {
		next = fastTick
	}
	return m, m.opts.Timer.Every(next, nextTick)
}

// flash shows a notice in the footer and schedules its removal.
func (m Model) flash(f FlashMsg) (Model, tea.Cmd) {
	m.flashMsg = f
	m.flashTag++
	tag := m.flashTag
	return m, m.opts.Timer.After(flashFor, func(time.Time) tea.Msg { return flashExpiredMsg{tag: tag} })
}

func (m *Model) setFocus(p pane) {
	m.focus = p
	m.tree.SetFocused(p == paneTree)
	m.detail.SetFocused(p == paneDetail)
	m.layout() // the help shows the focused pane's keys
}
