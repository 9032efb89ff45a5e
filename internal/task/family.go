package task

import (
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Family is what a result needs of the background tasks a session
// launched (OpenCode 1.18's background subagents): those children, their
// run states and, for the ones not running, their messages; the same of
// the background tasks they launched in turn. A session waits on them, so
// it is not done while one runs or owes it an end notice. A session that
// launched none has an empty Family.
type Family struct {
	// Sessions are the children, each with its ParentID.
	Sessions []wire.Session
	Status   map[string]wire.SessionStatus
	Messages map[string][]wire.MessageWithParts
}

// maxFamily bounds the children a family reads, however many a session
// launched or how deep they nest.
const maxFamily = 256

// ReadFamily gathers the Family of the session id whose messages are msgs:
// for each child a message launched in the background, and theirs in
// turn, its run state from status and, unless it runs, its messages from
// read; an error from read ends the gathering.
func ReadFamily(id string, msgs []wire.MessageWithParts, status func(id string) wire.SessionStatus,
	read func(id string) ([]wire.MessageWithParts, error)) (Family, error) {
	f := Family{Status: map[string]wire.SessionStatus{}, Messages: map[string][]wire.MessageWithParts{}}
	type todo struct{ id, parent string }
	var queue []todo
	seen := map[string]bool{id: true}
	add := func(parent string, msgs []wire.MessageWithParts) {
		for _, c := range BackgroundChildren(msgs) {
			if !seen[c] && len(seen) <= maxFamily {
				seen[c] = true
				queue = append(queue, todo{c, parent})
			}
		}
	}
	add(id, msgs)
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		f.Sessions = append(f.Sessions, wire.Session{ID: c.id, ParentID: c.parent})
		st := status(c.id)
		if st.Type == wire.StatusBusy || st.Type == wire.StatusRetry {
			f.Status[c.id] = st
			continue // it runs: that is all its parent needs to know
		}
		m, err := read(c.id)
		if err != nil {
			return Family{}, err
		}
		f.Messages[c.id] = m
		add(c.id, m)
	}
	return f, nil
}

// BackgroundChildren lists the children the messages launched in the
// background, in order, once each.
func BackgroundChildren(msgs []wire.MessageWithParts) []string {
	var out []string
	for i := range msgs {
		for j := range msgs[i].Parts {
			if c := model.BackgroundChild(&msgs[i].Parts[j]); c != "" && !contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
