package wire

import "fmt"

// Undecodable is one record of an answer that did not decode, while the
// rest of the answer did: a session of a list, a message of a history, a
// session's status. The client leaves it out and says so, but for a
// listed session whose id it could read: that one is kept, to be shown
// where its row would be, marked (Session.Undecodable).
type Undecodable struct {
	// What is the kind of record: "session", "message" or "status".
	What string
	// ID is the record's id when it could be read, else "".
	ID string
	// Pos is its place in its list, from 1; 0 for a map's entry.
	Pos int
	// Reason says what is wrong, in one line: "title is a number".
	Reason string
	// Op is the call that answered it, e.g. "GET /session".
	Op string
}

// maxShownID bounds the id an Undecodable's message quotes: it is the
// server's, and may be anything.
const maxShownID = 100

// Error is one line: "undecodable session ses_…: title is a number", or,
// without an id, "undecodable session #3 of GET /session: …".
func (u Undecodable) Error() string {
	switch {
	case u.ID != "":
		id := u.ID
		if len(id) > maxShownID {
			id = id[:maxShownID] + "…"
		}
		return fmt.Sprintf("undecodable %s %s: %s", u.What, id, u.Reason)
	case u.Pos > 0:
		return fmt.Sprintf("undecodable %s #%d of %s: %s", u.What, u.Pos, u.Op, u.Reason)
	}
	return fmt.Sprintf("undecodable %s in %s: %s", u.What, u.Op, u.Reason)
}
