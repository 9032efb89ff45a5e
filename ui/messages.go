package ui

import (
	"github.com/octop-dev/octop/feed"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/intent"
	"github.com/octop-dev/octop/wire"
)

// EventsMsg is a batch of stream events, in arrival order (see feed).
type EventsMsg = feed.EventsMsg

// ResetMsg empties the tree: the demo's recording starts over.
type ResetMsg = feed.ResetMsg

// FlashMsg shows a one-line notice in the footer for a few seconds.
type FlashMsg = intent.FlashMsg

// SelectMsg asks the screen to select a session, now or once it arrives.
type SelectMsg = intent.SelectMsg

// Dialog is a room shown over the screen (see intent.Dialog).
type Dialog = intent.Dialog

// snapshotMsg is the reply to a snapshot fetch. tag is the fetch's number:
// a reply older than the newest fetch is dropped.
type snapshotMsg struct {
	tag  int
	snap model.Snapshot
	err  error
}

// healthMsg is the reply to a health probe, tagged like snapshotMsg.
type healthMsg struct {
	tag    int
	health wire.Health
	err    error
}

// tickMsg drives the spinner, elapsed times and countdowns.
type tickMsg struct{}

// flashExpiredMsg clears the flash it was scheduled for (and no later one).
type flashExpiredMsg struct{ tag int }

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
