// Package feed is what brings events to the screen: the Batcher, which
// gathers a stream's envelopes into one message per read of a paced live
// stream (at most one per FrameInterval) or per FrameInterval for a
// replay (the recording's Player). It does not know the screen: it hands
// plain messages to a send func (a Program's Send), so the ui package only
// ever sees EventsMsg and ResetMsg.
package feed

import "github.com/octop-dev/octop/internal/wire"

// EventsMsg is a batch of stream events, in arrival order. The Batcher
// sends one per FrameInterval at most, so a burst costs one render.
type EventsMsg []wire.Envelope

// Events are the batch's events, without the empty envelopes.
func (b EventsMsg) Events() []wire.Event {
	if len(b) == 0 {
		return nil
	}
	evs := make([]wire.Event, 0, len(b))
	for _, env := range b {
		if env.Event != nil {
			evs = append(evs, env.Event)
		}
	}
	return evs
}

// ResetMsg empties the tree. The demo sends it when its recording starts
// over.
type ResetMsg struct{}
