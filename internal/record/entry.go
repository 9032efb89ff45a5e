package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Format names the file format in the header line.
const Format = "octop-recording/1"

// Kind says what an Entry holds.
type Kind string

// The kinds of entry. A reader skips kinds it does not know, so later
// versions may add some.
const (
	KindHeader   Kind = "header"
	KindEvent    Kind = "event"    // Data: one event's SSE data, as the server sent it
	KindSnapshot Kind = "snapshot" // Data: a model.Snapshot, the REST read of the whole tree
	// Data: a Failure, a read of the whole tree that failed.
	KindSnapshotFailed Kind = "snapshot_failed"
	KindConn           Kind = "conn"    // Data: a Conn, the stream's connection state
	KindResync         Kind = "resync"  // the stream (re)connected: the screen re-reads the tree
	KindHealth         Kind = "health"  // Data: a wire.Health, the server's version
	KindHistory        Kind = "history" // Data: a History, one session's messages as read
	// KindServer says a server joins the recording: with several servers,
	// one for each in the order the screen shows them, before its entries.
	KindServer Kind = "server"
)

// History is a session's messages as the screen read them (its history
// loader), so a replay shows the sessions that ended before the recording
// began as they were seen.
type History struct {
	ID       string                  `json:"id"`
	Messages []wire.MessageWithParts `json:"messages"`
}

// Failure is a read that failed live, as its error said.
type Failure struct {
	Error string `json:"error"`
}

// Entry is one line of a recording.
type Entry struct {
	Kind Kind `json:"kind"`
	// At is when octop received it, in Unix milliseconds.
	At int64 `json:"at"`
	// Server is the URL of the server it came from (empty on the header).
	Server string `json:"server,omitempty"`
	// Read numbers a snapshot's (or failed snapshot's) read among the
	// screen's reads of its server, 1 the first. Recordings before it
	// have none: their snapshots answer the reads in file order.
	Read int             `json:"read,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`

	// Header only.
	Format string `json:"format,omitempty"`
	Octop  string `json:"octop,omitempty"`
}

// Time is At as a time.Time.
func (e Entry) Time() time.Time { return time.UnixMilli(e.At) }

// Conn is a wire.ConnState as recorded: the error keeps only its text.
type Conn struct {
	State   string `json:"state"`
	Error   string `json:"error,omitempty"`
	RetryAt int64  `json:"retry_at,omitempty"` // Unix ms; 0 when no retry follows
	Attempt int    `json:"attempt,omitempty"`
}

// ConnOf records c.
func ConnOf(c wire.ConnState) Conn {
	r := Conn{State: c.State.String(), Attempt: c.Attempt}
	if c.Err != nil {
		r.Error = c.Err.Error()
	}
	if !c.RetryAt.IsZero() {
		r.RetryAt = c.RetryAt.UnixMilli()
	}
	return r
}

// ConnState is the wire.ConnState r recorded.
func (r Conn) ConnState() (wire.ConnState, error) {
	c := wire.ConnState{Attempt: r.Attempt}
	switch r.State {
	case "connecting":
		c.State = wire.Connecting
	case "connected":
		c.State = wire.Connected
	case "disconnected":
		c.State = wire.Disconnected
	default:
		return c, fmt.Errorf("unknown connection state %q", r.State)
	}
	if r.Error != "" {
		c.Err = errors.New(r.Error)
	}
	if r.RetryAt != 0 {
		c.RetryAt = time.UnixMilli(r.RetryAt)
	}
	return c, nil
}

// Decode turns an entry into what the live path handed the screen: a
// wire.Envelope (or wire.DecodeError) for an event, a wire.ConnState, a
// wire.ResyncNeeded, a model.Snapshot or a wire.Health. The header and
// kinds this version does not know give nil.
func (e Entry) Decode() (any, error) {
	switch e.Kind {
	case KindEvent:
		env, err := wire.DecodeEvent(e.Data)
		if err != nil {
			return wire.DecodeError{Err: err, Data: e.Data[:min(len(e.Data), 1024)]}, nil
		}
		return env, nil
	case KindConn:
		var c Conn
		if err := json.Unmarshal(e.Data, &c); err != nil {
			return nil, fmt.Errorf("connection state: %w", err)
		}
		return c.ConnState()
	case KindResync:
		return wire.ResyncNeeded{}, nil
	case KindSnapshot:
		var s model.Snapshot
		if err := json.Unmarshal(e.Data, &s); err != nil {
			return nil, fmt.Errorf("snapshot: %w", err)
		}
		return s, nil
	case KindSnapshotFailed:
		var f Failure
		if err := json.Unmarshal(e.Data, &f); err != nil {
			return nil, fmt.Errorf("failed snapshot: %w", err)
		}
		return f, nil
	case KindHistory:
		var h History
		if err := json.Unmarshal(e.Data, &h); err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
		return h, nil
	case KindHealth:
		var h wire.Health
		if err := json.Unmarshal(e.Data, &h); err != nil {
			return nil, fmt.Errorf("health: %w", err)
		}
		return h, nil
	}
	return nil, nil
}
