package wire

import (
	"fmt"
	"time"
)

// State is the event stream's connection state.
type State int

// Connection states, in the order a healthy stream goes through them.
const (
	Connecting State = iota
	Connected
	Disconnected
)

// String names the state.
func (s State) String() string {
	switch s {
	case Connecting:
		return "connecting"
	case Connected:
		return "connected"
	case Disconnected:
		return "disconnected"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// ConnState reports a change of the stream's connection. On Disconnected,
// Err says why (nil when the caller stopped the stream) and RetryAt when
// the next attempt starts (zero when there will be none). Attempt numbers
// the connection attempts from 1, and starts again from 1 after a
// connection that stayed up for StableAfter: Connecting and Connected
// carry the attempt in progress, Disconnected the one that just ended.
type ConnState struct {
	State   State
	Err     error
	RetryAt time.Time
	Attempt int
}

// ResyncNeeded follows every successful (re)connect. The server keeps no
// backlog, so whatever happened while disconnected must be re-read over
// REST (Sessions, Status, Messages…).
type ResyncNeeded struct{}

// DecodeError is an event that could not be decoded. The stream goes on.
// Data is the start of the raw payload (at most 1 KiB).
type DecodeError struct {
	Err  error
	Data []byte
}

// Error says what was wrong with the event.
func (e DecodeError) Error() string { return e.Err.Error() }
