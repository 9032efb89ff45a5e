package model

import "github.com/octop-dev/octop/internal/wire"

// Undecodable says why the session's listing did not decode (the server
// sent, say, a number for its title), or "" when it did. Such a session
// keeps what did decode, so it is shown where it belongs, marked; a
// listing that decodes, or a newer session.updated, clears it.
func (s *State) Undecodable(id string) string { return s.undecodable[id] }

// noteUndecodable keeps what info's listing says of its decoding: the
// reason while it did not decode, nothing once a fresh one did. The
// caller marks the session changed (upsertInfo's callers do).
func (s *State) noteUndecodable(info wire.Session, fresh bool) {
	switch {
	case info.Undecodable != "":
		if s.undecodable == nil {
			s.undecodable = map[string]string{}
		}
		s.undecodable[info.ID] = info.Undecodable
	case fresh:
		delete(s.undecodable, info.ID)
	}
}
