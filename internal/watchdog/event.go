package watchdog

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Event names, as `octop watch` prints them and OCTOP_EVENT carries them.
const (
	SessionStarted     = "session.started"
	SessionDone        = "session.done"
	SessionFailed      = "session.failed"
	SessionAborted     = "session.aborted"
	SessionInterrupted = "session.interrupted"
	SessionWaiting     = "session.waiting"
	SessionAnswered    = "session.answered"
	ConnectionLost     = "connection.lost"
	ConnectionRestored = "connection.restored"
	// ConnectionRetrying is `octop watch`'s: each further attempt that
	// fails while the server cannot be reached.
	ConnectionRetrying = "connection.retrying"
	// Runaway events are "runaway." plus the Kind: runaway.loop, …
	RunawayPrefix = "runaway."
)

// Event is one transition: a session starting, ending, waiting on the
// user, a runaway being marked, the connection dropping or coming back.
type Event struct {
	TS     int64   `json:"-"` // Unix ms, from the caller's clock
	Name   string  `json:"event"`
	ID     string  `json:"id,omitempty"`
	Parent string  `json:"parent,omitempty"`
	Root   string  `json:"root,omitempty"`
	Title  string  `json:"title,omitempty"`
	Agent  string  `json:"agent,omitempty"`
	Status string  `json:"status,omitempty"`
	Reason string  `json:"reason,omitempty"`
	Tokens float64 `json:"tokens"`
	// Cost is the priced replies' sum (USD) over the session's subtree,
	// nil (null) when none is priced; Unpriced counts the replies that
	// used tokens with no cost reported, which Cost leaves out.
	Cost     *float64 `json:"cost"`
	Unpriced int      `json:"unpriced_replies"`
}

// MarshalJSON writes the event as one NDJSON object, ts first (RFC 3339,
// UTC, milliseconds).
func (e Event) MarshalJSON() ([]byte, error) {
	type plain Event
	body, err := json.Marshal(plain(e))
	if err != nil {
		return nil, err
	}
	ts, _ := json.Marshal(time.UnixMilli(e.TS).UTC().Format("2006-01-02T15:04:05.000Z07:00"))
	out := append([]byte(`{"ts":`), ts...)
	out = append(out, ',')
	return append(out, body[1:]...), nil
}

// Line is the event as one line of text for a person.
func (e Event) Line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %-19s", time.UnixMilli(e.TS).UTC().Format("15:04:05"), e.Name)
	if e.ID != "" {
		fmt.Fprintf(&b, " %s", e.ID)
	}
	if e.Agent != "" {
		fmt.Fprintf(&b, " @%s", strings.Join(strings.Fields(e.Agent), " "))
	}
	if e.Title != "" {
		fmt.Fprintf(&b, " %q", e.Title)
	}
	if e.Reason != "" {
		fmt.Fprintf(&b, ": %s", strings.Join(strings.Fields(e.Reason), " ")) // one line, whatever the server wrote
	}
	return b.String()
}

// Runaway reports whether the event is a watchdog mark, and which.
func (e Event) Runaway() (Kind, bool) {
	k, ok := strings.CutPrefix(e.Name, RunawayPrefix)
	return Kind(k), ok
}

// Notable reports whether the event should call the person: a root that
// ends, anything that waits on them, any failure, any runaway. A child
// that finishes normally is not notable.
func (e Event) Notable() bool {
	if _, ok := e.Runaway(); ok {
		return true
	}
	switch e.Name {
	case SessionWaiting, SessionFailed:
		return true
	case SessionDone, SessionAborted, SessionInterrupted:
		return e.Parent == ""
	}
	return false
}

// Summary is a short phrase for a notification: "done: Fix the bug".
func (e Event) Summary() string {
	what := strings.TrimPrefix(strings.TrimPrefix(e.Name, "session."), "connection.")
	if k, ok := e.Runaway(); ok {
		what = string(k)
	}
	name := e.Title
	if name == "" {
		name = e.ID
	}
	s := what
	if name != "" {
		s += ": " + name
	}
	if e.Reason != "" && e.Name != SessionDone {
		s += " (" + e.Reason + ")"
	}
	return s
}
