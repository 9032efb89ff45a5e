package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/ui/calls"
	"github.com/octop-dev/octop/ui/intent"
)

// This file is where the rooms' intents become calls: the root stamps
// each intent with the dialog that made it, starts it through calls.InFlight
// and hands the reply back to that dialog.

// stampedMsg is an intent with the dialog that made it: one from a dialog
// since closed is dropped.
type stampedMsg struct {
	gen int
	req intent.Request
}

// stamp marks the intents cmd yields with the dialog generation gen.
func stamp(gen int, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch msg := cmd().(type) {
		case intent.Request:
			return stampedMsg{gen: gen, req: msg}
		case tea.BatchMsg:
			out := make(tea.BatchMsg, len(msg))
			for i, c := range msg {
				out[i] = stamp(gen, c)
			}
			return out
		default:
			return msg
		}
	}
}

// startRequest starts an intent's call, unless the dialog that made it
// has closed (a detached intent, an inbox answer, runs regardless).
func (m Model) startRequest(s stampedMsg) (Model, tea.Cmd) {
	detached := false
	if d, ok := s.req.(intent.Detached); ok {
		detached = d.Detached()
	}
	if m.opts.Ops == nil || (!detached && (m.dialog == nil || s.gen != m.dialogGen)) {
		return m, nil // its dialog was closed before the intent arrived
	}
	var cmd tea.Cmd
	m.calls, cmd = m.calls.Start(m.opts.Ops, s.req, detached)
	return m, cmd
}

// updateReply hands a reply to the dialog that asked, and shows a
// detached request's notice; a cancelled request's reply is dropped.
func (m Model) updateReply(r calls.Reply) (tea.Model, tea.Cmd) {
	var detached, ok bool
	if m.calls, detached, ok = m.calls.Finish(r); !ok {
		return m, nil
	}
	var flash tea.Cmd
	if f, ok := r.Msg.(interface{ Flash() intent.FlashMsg }); ok && detached {
		notice := f.Flash()
		flash = func() tea.Msg { return notice }
	}
	if m.dialog == nil {
		return m, flash
	}
	nm, cmd := m.updateDialog(r.Msg)
	return nm, tea.Batch(flash, cmd)
}

// cancelRequests cancels the requests in flight: all of them, or only
// those bound to the dialog.
func (m *Model) cancelRequests(all bool) { m.calls = m.calls.Cancel(all) }

// dialogBusy says the open dialog waits on a request of its own.
func (m Model) dialogBusy() bool { return m.calls.Busy() }
