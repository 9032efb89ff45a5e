package model

import (
	"sort"

	"github.com/octop-dev/octop/internal/wire"
)

// State is the whole tree. Read it through its methods; only Apply and
// ApplySnapshot change it.
//
// Reads are cheap enough to call for every row of every frame, but some
// (Roots, Counts, Subtree, Flatten) fill caches inside the State, so a State
// must be used from one goroutine only.
type State struct {
	sessions map[string]*Session
	// list holds the same sessions as a slice (order meaningless), because
	// ranging over a slice is several times cheaper than over a map.
	list        []*Session
	permissions map[string]wire.PermissionRequest
	questions   map[string]wire.QuestionRequest
	version     uint64

	// orphans holds, by parent id, the children whose parent is not known
	// yet; they are adopted when it arrives.
	orphans map[string][]string
	// deleted remembers deleted ids so a late event does not bring a
	// session back as a placeholder.
	deleted map[string]struct{}
	// intern shares the few distinct tool and agent names between the
	// many calls that repeat them.
	intern map[string]string
	// undecodable says why, by id, of the sessions whose listing did not
	// decode (wire.Session.Undecodable); nil while none.
	undecodable map[string]string

	// The sessions changed since the rollups (derive) and the counts
	// (Tally) last looked, or a full pass asked instead; see tally.go.
	deriveQ, tallyQ       []*Session
	deriveFull, tallyFull bool
	tally                 Counts
	busy                  map[*Session]struct{} // KindRunning, as Tally last saw them
	sealed                map[sealed]*more      // shared by sealed sessions, see Seal

	// now is the caller's time (SetNow); stops when each session was first
	// seen stopped without a word on how, and stopping those within their
	// grace (see stopping.go).
	now      int64
	stops    map[string]int64
	stopping map[*Session]struct{}

	treeV  uint64 // bumped when the shape (membership, parents, order) changes
	roots  []string
	rootsV uint64  // treeV the roots cache was built at, plus one
	aggV   uint64  // version the derived rollups were built at, plus one
	fepoch uint32  // Flatten's mark epoch
	fmarks []fmark // Flatten's marks, by list index; made by the first filter
}

// New returns an empty State.
func New() *State {
	return &State{
		sessions:    map[string]*Session{},
		permissions: map[string]wire.PermissionRequest{},
		questions:   map[string]wire.QuestionRequest{},
		orphans:     map[string][]string{},
		deleted:     map[string]struct{}{},
		intern:      map[string]string{},
	}
}

// Version increases on every change, so a view can cache by it.
func (s *State) Version() uint64 { return s.version }

// SessionVersion changes whenever an event or snapshot changes that
// session's own data (info, status, error, messages, tool calls, pending
// requests), so a row can be cached by it and drawn again only when its
// session changed. It does not cover what other sessions add (rollups,
// children): read those through Counts and Subtree.
func (s *State) SessionVersion(id string) uint64 {
	if ss := s.sessions[id]; ss != nil {
		return ss.rev
	}
	return 0
}

// TreeVersion changes whenever the tree's shape does: which sessions
// exist, their parents, or the order of roots and children. Rows built by
// Flatten without a filter stay valid while it holds still, so a view can
// skip rebuilding them on events that only touch tool calls and status.
func (s *State) TreeVersion() uint64 { return s.treeV }

// Session returns the session with that id, or nil.
func (s *State) Session(id string) *Session { return s.sessions[id] }

// Len is the number of sessions known (placeholders included).
func (s *State) Len() int { return len(s.sessions) }

// Roots returns the ids of sessions without a (known) parent, newest first.
// The slice is shared and valid until the next change; do not modify it.
func (s *State) Roots() []string {
	if s.rootsV == s.treeV+1 {
		return s.roots
	}
	roots := s.roots[:0]
	for _, ss := range s.list {
		if ss.parent == nil {
			roots = append(roots, ss.ID)
		}
	}
	sort.Slice(roots, func(i, j int) bool {
		a, b := s.sessions[roots[i]], s.sessions[roots[j]]
		if a.Created != b.Created {
			return a.Created > b.Created
		}
		return a.ID > b.ID
	})
	s.roots = roots
	s.rootsV = s.treeV + 1
	return roots
}

// Running reports whether the session is busy or retrying.
func (ss *Session) Running() bool {
	return ss.run == runBusy || ss.run == runRetry
}

// stopped reports whether the session is known to be idle, and not within
// the grace of a stop (see stopping.go), so its open tool calls can no
// longer be running.
func (ss *Session) stopped() bool { return ss.StatusKnown && !ss.Running() && ss.stop != stopPending }

// Counts summarises a session's tool calls and children.
func (s *State) Counts(id string) Counts {
	ss := s.sessions[id]
	if ss == nil {
		return Counts{}
	}
	s.derive()
	c := Counts{
		ToolsDone:    int(ss.nDone),
		ToolsFailed:  int(ss.nFailed),
		ToolsAborted: int(ss.nAborted),
		Children:     len(ss.kids),
		RunningBelow: int(ss.runBelow),
		WaitingBelow: int(ss.waitBelow),
		Tokens:       ss.subTokens,
		Cost:         ss.subCost,
		Unpriced:     int(ss.subUnpriced),
	}
	switch {
	case !ss.stopped():
		c.ToolsRunning = int(ss.nOpen)
	case ss.wasAborted():
		c.ToolsAborted += int(ss.nOpen)
	default:
		c.ToolsInterrupted = int(ss.nOpen)
	}
	if ss.nBg > 0 {
		ss.countBackground(&c)
	}
	return c
}

// Permissions returns the pending permission requests of a session, in id
// order.
func (s *State) Permissions(id string) []wire.PermissionRequest {
	ss := s.sessions[id]
	if ss == nil || ss.waiting == 0 {
		return nil
	}
	var out []wire.PermissionRequest
	for _, p := range s.permissions {
		if p.SessionID == id {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Questions returns the pending questions of a session, in id order.
func (s *State) Questions(id string) []wire.QuestionRequest {
	ss := s.sessions[id]
	if ss == nil || ss.waiting == 0 {
		return nil
	}
	var out []wire.QuestionRequest
	for _, q := range s.questions {
		if q.SessionID == id {
			out = append(out, q)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Pending is the number of pending permission and question requests over
// all sessions.
func (s *State) Pending() int { return len(s.permissions) + len(s.questions) }

// Waiting returns the ids of the sessions blocked on a permission or a
// question, in id order.
func (s *State) Waiting() []string {
	var out []string
	for _, ss := range s.list {
		if ss.waiting > 0 {
			out = append(out, ss.ID)
		}
	}
	sort.Strings(out)
	return out
}
