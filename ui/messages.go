package ui

import (
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/wire"
)

// EventsMsg is a batch of stream events, in arrival order. The Batcher
// sends one per frame at most, so a burst costs one render.
type EventsMsg []wire.Envelope

// ResetMsg empties the tree. The demo sends it when its recording starts
// over.
type ResetMsg struct{}

// FlashMsg shows a one-line notice in the footer for a few seconds: an
// action's result, or why it cannot run.
type FlashMsg struct {
	Text  string
	Error bool
}

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
