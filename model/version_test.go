package model

import (
	"fmt"
	"strings"
	"testing"
)

// ownDigest is everything of one session that its own events can change:
// what a row or the detail pane draws from that session alone (rollups and
// children come from other sessions and are read through Counts).
func ownDigest(s *State, id string) string {
	ss := s.sessions[id]
	var b strings.Builder
	fmt.Fprintf(&b, "%v %q %q %q %q %q %v %d %v %+v %v %v %q %d %d %d %d %d %d %d",
		ss.Known, ss.Title, ss.Agent, ss.ParentID, ss.Directory, ss.Run(), ss.StatusKnown, s.display(id), ss.Err,
		ss.Retry(), ss.Tokens, ss.Cost, ss.LastText(), ss.Created, ss.Updated,
		ss.RunStart, ss.RunEnd, ss.LastActive, len(s.Permissions(id)), len(s.Questions(id)))
	for i, t := range ss.Tools {
		fmt.Fprintf(&b, "|%+v %d", t, ss.CallStatus(i))
	}
	return b.String()
}

// TestSessionVersionCoversOwnChanges replays every recording one event at
// a time: whenever a session's own data changed, its SessionVersion must
// have changed too, or a row cached by it would show stale data.
func TestSessionVersionCoversOwnChanges(t *testing.T) {
	for _, rec := range loadRecordings(t) {
		s := New()
		before := map[string]string{}
		vers := map[string]uint64{}
		changed := 0
		for n, ev := range decodeAll(t, rec.datas) {
			s.Apply(ev)
			for id := range s.sessions {
				d, v := ownDigest(s, id), s.SessionVersion(id)
				if old, ok := before[id]; ok && old != d {
					changed++
					if vers[id] == v {
						t.Fatalf("%s event %d (%T): %s changed but its version stayed %d\nwas %s\nnow %s",
							rec.name, n, ev, id, v, old, d)
					}
				}
				before[id], vers[id] = d, v
			}
		}
		if changed == 0 {
			t.Fatalf("%s: no session changed over the whole replay; the check checked nothing", rec.name)
		}
	}
}

// TestSessionVersionOnlyOwnSession: an event about one session leaves the
// version of every other session alone, so caching by it saves work.
func TestSessionVersionOnlyOwnSession(t *testing.T) {
	s := apply(created("a", "", "A", 1), created("b", "", "B", 2))
	va, vb := s.SessionVersion("a"), s.SessionVersion("b")
	s.Apply(tool("b", "m1", "p1", "bash", "running"))
	if s.SessionVersion("a") != va {
		t.Errorf("a's version moved on b's tool call")
	}
	if s.SessionVersion("b") == vb {
		t.Errorf("b's version stayed on its own tool call")
	}
}
