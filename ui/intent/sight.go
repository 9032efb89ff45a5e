package intent

import (
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/wire"
)

// MessagesRequested reads session ID's messages (the transcript and
// files-changed rooms).
type MessagesRequested struct{ ID string }

func (MessagesRequested) request() {}

// MessagesLoaded answers MessagesRequested. Running says the session was
// still running when they were read.
type MessagesLoaded struct {
	ID      string
	Msgs    []wire.MessageWithParts
	Running bool
	Err     error
}

// Observer is a room that follows the live tree: after every batch of
// stream events (evs) and every clock tick (evs nil), the root hands it
// the model it owns and the time, and shows the Dialog it returns. The
// room must only read st, and only during the call.
type Observer interface {
	Observe(st *model.State, evs []wire.Event, nowMS int64) Dialog
}
