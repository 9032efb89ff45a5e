package intent

import (
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// MessagesRequested reads session ID's messages (the transcript and
// files-changed rooms): all of them, or with Limit the newest Limit, so a
// long session shows its end while the rest loads.
type MessagesRequested struct {
	ID    string
	Limit int
}

func (MessagesRequested) request() {}

// MessagesLoaded answers MessagesRequested. Running says the session was
// still running when they were read; Partial that a Limit cut them (there
// may be older ones).
type MessagesLoaded struct {
	ID      string
	Msgs    []wire.MessageWithParts
	Running bool
	Partial bool
	Err     error
}

// Observer is a room that follows the live tree: after every batch of
// stream events (evs) and every clock tick (evs nil), the root hands it
// the model it owns and the time, and shows the Dialog it returns. The
// room must only read st, and only during the call.
type Observer interface {
	Observe(st *model.State, evs []wire.Event, nowMS int64) Dialog
}
