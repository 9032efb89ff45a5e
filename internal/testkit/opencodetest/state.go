package opencodetest

import (
	"fmt"
	"sort"

	"github.com/octop-dev/octop/internal/wire"
)

// Project is one entry of GET /project.
type Project struct {
	ID        string   `json:"id"`
	Worktree  string   `json:"worktree"`
	Name      string   `json:"name,omitempty"`
	Sandboxes []string `json:"sandboxes,omitempty"`
}

// state is what the fake holds. Guarded by Server.mu.
type state struct {
	sessions    map[string]wire.Session
	order       []string // session ids in creation order
	status      map[string]wire.SessionStatus
	messages    map[string][]wire.MessageWithParts
	agents      []wire.Agent
	projects    []Project
	todos       map[string][]wire.Todo
	permissions []wire.PermissionRequest
	questions   []wire.QuestionRequest
	patches     map[string][]Patch // by session id (revert.go)
	lines       map[string]int     // lines of a file, for a revert's diff
	clock       int64              // Unix ms, advanced by every change
	seq         int                // numbers new sessions
	events      int                // numbers events
}

// DefaultAgents is what GET /agent lists unless SetAgents says otherwise:
// the agents a fresh 1.18.33 install has.
func DefaultAgents() []wire.Agent {
	return []wire.Agent{
		{Name: "build", Mode: "primary", Native: true},
		{Name: "plan", Mode: "primary", Native: true},
		{Name: "general", Mode: "subagent", Native: true, Description: "General-purpose agent for researching complex questions and executing multi-step tasks."},
		{Name: "explore", Mode: "subagent", Native: true, Description: "Fast agent specialized for exploring codebases."},
		{Name: "title", Mode: "primary", Native: true, Hidden: true},
		{Name: "summary", Mode: "primary", Native: true, Hidden: true},
		{Name: "compaction", Mode: "primary", Native: true, Hidden: true},
	}
}

func newState(o Options) state {
	return state{
		sessions: map[string]wire.Session{},
		status:   map[string]wire.SessionStatus{},
		messages: map[string][]wire.MessageWithParts{},
		todos:    map[string][]wire.Todo{},
		agents:   DefaultAgents(),
		projects: []Project{{ID: "global", Worktree: "/"}},
		clock:    1795284288000,
	}
}

// tick advances the fake's clock and returns it.
func (st *state) tick() int64 {
	st.clock++
	return st.clock
}

// AddSession adds or replaces a session, filling in what the server would:
// its directory, version and times. It returns the session as stored.
// It sends no event; Emit one if the code under test should see it come.
func (s *Server) AddSession(ss wire.Session) wire.Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.put(ss, s.opts)
}

func (st *state) put(ss wire.Session, o Options) wire.Session {
	if ss.ID == "" {
		st.seq++
		ss.ID = fmt.Sprintf("ses_fake%04d", st.seq)
	}
	if ss.Directory == "" {
		ss.Directory = o.Directory
	}
	if ss.Version == "" {
		ss.Version = o.Version
	}
	if ss.Time.Created == 0 {
		ss.Time.Created = st.tick()
	}
	if ss.Time.Updated == 0 {
		ss.Time.Updated = ss.Time.Created
	}
	if _, ok := st.sessions[ss.ID]; !ok {
		st.order = append(st.order, ss.ID)
	}
	st.sessions[ss.ID] = ss
	return ss
}

// Session is the stored session with that id.
func (s *Server) Session(id string) (wire.Session, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, ok := s.st.sessions[id]
	return ss, ok
}

// Sessions is every stored session, in creation order.
func (s *Server) Sessions() []wire.Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.list(func(wire.Session) bool { return true })
}

// list is the sessions keep accepts, newest update first, as GET /session
// answers.
func (st *state) list(keep func(wire.Session) bool) []wire.Session {
	out := []wire.Session{}
	for _, id := range st.order {
		if ss := st.sessions[id]; keep(ss) {
			out = append(out, ss)
		}
	}
	return out
}

// newestFirst sorts sessions as GET /session answers: last updated first.
func newestFirst(ss []wire.Session) {
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].Time.Updated > ss[j].Time.Updated })
}

// SetStatus sets a session's run state; idle removes it from
// GET /session/status, as the server lists only the others.
func (s *Server) SetStatus(id string, st wire.SessionStatus) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st.Type == wire.StatusIdle || st.Type == "" {
		delete(s.st.status, id)
		return
	}
	s.st.status[id] = st
}

// SetMessages sets what GET /session/{id}/message lists.
func (s *Server) SetMessages(id string, msgs []wire.MessageWithParts) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.messages[id] = msgs
}

// SetTodos sets what GET /session/{id}/todo lists.
func (s *Server) SetTodos(id string, todos []wire.Todo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.todos[id] = todos
}

// SetAgents sets what GET /agent lists.
func (s *Server) SetAgents(agents []wire.Agent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.agents = agents
}

// SetProjects sets what GET /project lists (by default only the catch-all
// project "global" at "/").
func (s *Server) SetProjects(p []Project) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.projects = p
}

// AddPermission adds a pending permission request (GET /permission).
func (s *Server) AddPermission(p wire.PermissionRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.permissions = append(s.st.permissions, p)
}

// AddQuestion adds a pending question (GET /question).
func (s *Server) AddQuestion(q wire.QuestionRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.questions = append(s.st.questions, q)
}

// Pending is how many permission requests and questions still wait.
func (s *Server) Pending() (permissions, questions int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.st.permissions), len(s.st.questions)
}

// RemoveSession forgets a session (and its status and messages) without
// an event, as if it was deleted while nobody listened.
func (s *Server) RemoveSession(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.st.sessions, id)
	delete(s.st.status, id)
	delete(s.st.messages, id)
	if i := indexOf(s.st.order, func(x string) bool { return x == id }); i >= 0 {
		s.st.order = append(s.st.order[:i], s.st.order[i+1:]...)
	}
}
