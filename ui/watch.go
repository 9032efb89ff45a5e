package ui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/alert"
	"github.com/octop-dev/octop/ui/calls"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/watchdog"
	"github.com/octop-dev/octop/wire"
)

// The watchdog is fed here, after the server's messages have changed the
// model: the same events, the snapshot after each connect, the connection
// and a tick a second. What it emits becomes the tree's and detail's
// marks, the header's count and notice, a terminal notification, the
// --exec hook and, with --abort-on, an abort.

// watchdogTickMS is how often the stall check runs.
const watchdogTickMS = 1000

// newWatchdog makes the watchdog the options ask for and lets the panes
// read its marks.
func (m *Model) newWatchdog() {
	if m.opts.Watchdog == nil {
		return
	}
	m.wd = watchdog.New(*m.opts.Watchdog)
	wd := m.wd
	m.tree.SetRunaway(func(id string) string {
		var words []string
		for _, mk := range wd.Marks(id) {
			words = append(words, string(mk.Kind))
		}
		return strings.Join(words, " ")
	})
	m.detail.SetRunaway(func(id string) []string {
		var lines []string
		for _, mk := range wd.Marks(id) {
			lines = append(lines, string(mk.Kind)+": "+mk.Evidence)
		}
		return lines
	})
}

// watched feeds msg, which next has already applied, to the watchdog.
func watched(msg tea.Msg, next tea.Model, cmd tea.Cmd) (tea.Model, tea.Cmd) {
	m, ok := next.(Model)
	if !ok || m.wd == nil {
		return next, cmd
	}
	now := m.now.UnixMilli()
	var out watchdog.Out
	switch msg := msg.(type) {
	case EventsMsg:
		evs := make([]wire.Event, 0, len(msg))
		for _, env := range msg {
			if env.Event != nil {
				evs = append(evs, env.Event)
			}
		}
		out = m.wd.Events(m.state, evs, now)
	case wire.ConnState:
		out = m.wd.Conn(msg, now)
	case snapshotMsg:
		if msg.tag != m.snapTag || msg.err != nil {
			return m, cmd
		}
		out = m.wd.Resync(m.state, now)
	case tickMsg:
		if now-m.wdTicked < watchdogTickMS {
			return m, cmd
		}
		m.wdTicked = now
		out = m.wd.Tick(m.state, now)
	}
	m.runawayN = m.wd.Marked() // marks change only here: once per step, not per frame
	if len(out.Events) == 0 && len(out.Aborts) == 0 {
		return m, cmd
	}
	cmds := append([]tea.Cmd{cmd}, m.watchdogOut(out)...)
	return m, tea.Batch(cmds...)
}

// watchdogOut turns the watchdog's output into commands: the hook for
// each notable event, one notification for them all (a burst rings
// once), aborts for --abort-on.
func (m *Model) watchdogOut(out watchdog.Out) []tea.Cmd {
	var cmds []tea.Cmd
	notable := 0
	for _, e := range out.Events {
		if !e.Notable() {
			continue
		}
		notable++
		m.notice = e.Summary()
		if f := m.opts.OnEvent; f != nil {
			cmds = append(cmds, func() tea.Msg { f(e); return nil })
		}
	}
	if notable > 1 {
		m.notice += fmt.Sprintf(" (+%d more)", notable-1)
	}
	if notable > 0 {
		if seq := alert.Sequence(m.opts.Notify, "octop", m.notice, m.opts.Getenv); seq != "" {
			cmds = append(cmds, tea.Raw(seq))
		}
	}
	for _, a := range out.Aborts {
		// What stops says who stopped it: the session and the subtree
		// aborted with it.
		ids := append(m.state.BusyDescendants(a.ID), a.ID)
		for _, id := range ids {
			m.state.NoteAbortedBy(id, "octop: "+string(a.Kind))
		}
		if m.opts.Ops == nil {
			continue
		}
		ops := m.opts.Ops
		cmds = append(cmds, func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), calls.RequestTimeout)
			defer cancel()
			done, err := ops.AbortSessions(ctx, ids)
			if err != nil {
				return FlashMsg{Text: fmt.Sprintf("could not abort %s (%s): %s", a.ID, a.Kind, err), Error: true}
			}
			return FlashMsg{Text: fmt.Sprintf("%s: stopped %s", a.Reason, format.Plural(len(done), "session", "sessions"))}
		})
	}
	return cmds
}
