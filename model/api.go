package model

import "github.com/octop-dev/octop/client"

// State is the whole tree. Read it through its methods; only Apply and
// ApplySnapshot change it.
type State struct {
	sessions    map[string]*Session
	permissions map[string]client.PermissionRequest
	questions   map[string]client.QuestionRequest
	version     uint64
}

// New returns an empty State.
func New() *State {
	return &State{
		sessions:    map[string]*Session{},
		permissions: map[string]client.PermissionRequest{},
		questions:   map[string]client.QuestionRequest{},
	}
}

// Version increases on every change, so a view can cache by it.
func (s *State) Version() uint64 { return s.version }

// Apply folds one event into the state. Unknown events are ignored.
func (s *State) Apply(ev client.Event) { panic("TODO") }

// ApplySnapshot folds a full REST read into the state, over whatever the
// stream built so far.
func (s *State) ApplySnapshot(snap Snapshot) { panic("TODO") }

// Session returns the session with that id, or nil.
func (s *State) Session(id string) *Session { return s.sessions[id] }

// Len is the number of sessions known (placeholders included).
func (s *State) Len() int { return len(s.sessions) }

// Roots returns the ids of sessions without a (known) parent, newest first.
func (s *State) Roots() []string { panic("TODO") }

// Display is the status to show for a session.
func (s *State) Display(id string) Display { panic("TODO") }

// Counts summarises a session's tool calls and children.
func (s *State) Counts(id string) Counts { panic("TODO") }

// Subtree returns tokens and cost summed over the session and all its
// descendants.
func (s *State) Subtree(id string) Totals { panic("TODO") }

// Elapsed is how long the session has run, in ms, given the current time.
func (s *State) Elapsed(id string, nowMS int64) int64 { panic("TODO") }

// Permissions returns the pending permission requests of a session.
func (s *State) Permissions(id string) []client.PermissionRequest { panic("TODO") }

// Questions returns the pending questions of a session.
func (s *State) Questions(id string) []client.QuestionRequest { panic("TODO") }

// Flatten gives the visible rows: roots newest first, children in creation
// order, descending only into expanded sessions. A non-empty filter keeps
// the sessions whose title, agent or id contains it (case-insensitive) and
// the ancestors of every match, expanded so the match shows.
func Flatten(s *State, expanded map[string]bool, filter string) []Row { panic("TODO") }
