package opencodetest

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/octop-dev/octop/internal/wire"
)

// routes is the fake's own answer to each route octop uses.
func (s *Server) routes() *http.ServeMux {
	m := http.NewServeMux()
	m.HandleFunc("GET /global/health", func(w http.ResponseWriter, r *http.Request) {
		s.writeJSON(w, 200, wire.Health{Healthy: true, Version: s.opts.Version})
	})
	m.HandleFunc("GET /session", s.listSessions)
	m.HandleFunc("POST /session", s.createSession)
	m.HandleFunc("GET /session/status", s.statuses)
	m.HandleFunc("GET /session/{id}", s.withSession(true, func(w http.ResponseWriter, r *http.Request, ss wire.Session) {
		s.writeJSON(w, 200, ss)
	}))
	m.HandleFunc("DELETE /session/{id}", s.withSession(false, s.deleteSession))
	m.HandleFunc("GET /session/{id}/children", s.withSession(false, s.children))
	m.HandleFunc("GET /session/{id}/message", s.withSession(false, s.messages))
	m.HandleFunc("GET /session/{id}/todo", s.withSession(false, func(w http.ResponseWriter, r *http.Request, ss wire.Session) {
		s.writeLocked(w, func() any { return nonNil(s.st.todos[ss.ID]) }) // both versions have the route
	}))
	m.HandleFunc("POST /session/{id}/prompt_async", s.withSession(false, func(w http.ResponseWriter, r *http.Request, _ wire.Session) {
		w.WriteHeader(http.StatusNoContent)
	}))
	m.HandleFunc("POST /session/{id}/abort", s.abort)
	m.HandleFunc("POST /session/{id}/revert", s.withSession(true, s.revert))
	m.HandleFunc("POST /session/{id}/unrevert", s.withSession(true, s.unrevert))
	m.HandleFunc("GET /agent", func(w http.ResponseWriter, r *http.Request) { s.writeLocked(w, func() any { return s.st.agents }) })
	m.HandleFunc("GET /project", func(w http.ResponseWriter, r *http.Request) { s.writeLocked(w, func() any { return s.st.projects }) })
	m.HandleFunc("GET /permission", func(w http.ResponseWriter, r *http.Request) {
		s.writeLocked(w, func() any { return nonNil(s.st.permissions) })
	})
	m.HandleFunc("GET /question", func(w http.ResponseWriter, r *http.Request) {
		s.writeLocked(w, func() any { return nonNil(s.st.questions) })
	})
	m.HandleFunc("POST /permission/{id}/reply", s.replyPermission)
	m.HandleFunc("POST /question/{id}/reply", s.replyQuestion("question.replied"))
	m.HandleFunc("POST /question/{id}/reject", s.replyQuestion("question.rejected"))
	m.HandleFunc("GET /experimental/session", s.globalSessions)
	m.HandleFunc("GET /event", s.stream(false))
	m.HandleFunc("GET /global/event", s.stream(true))
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if s.opts.Version == V11 {
			// 1.1 hands unknown paths to its web app, which fails offline.
			s.fail(w, 500, "UnknownError", "Error: Unable to connect. Is the computer able to access the url?")
			return
		}
		http.NotFound(w, r)
	})
	return m
}

// writeJSON answers with v as JSON (poisoned when Hostile).
func (s *Server) writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(s.hostile(append(b, '\n')))
}

func (s *Server) fail(w http.ResponseWriter, status int, name, msg string) {
	s.writeJSON(w, status, wire.ErrorInfo{Name: name, Data: wire.ErrorInfoData{Message: msg}})
}

// writeLocked answers with what get returns, read under the lock.
func (s *Server) writeLocked(w http.ResponseWriter, get func() any) {
	s.mu.Lock()
	v := get()
	b, _ := json.Marshal(v)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(s.hostile(b))
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

// withSession looks the {id} session up. A missing one is a 404 on 1.18;
// 1.1.65 answers 404 only on GET /session/{id} (always404) and otherwise
// goes on with an empty session.
func (s *Server) withSession(always404 bool, h func(http.ResponseWriter, *http.Request, wire.Session)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		ss, ok := s.Session(id)
		if !ok && (always404 || s.opts.Version != V11) {
			s.fail(w, 404, "NotFoundError", "Session not found: "+id)
			return
		}
		if !ok {
			ss = wire.Session{ID: id}
		}
		h(w, r, ss)
	}
}

// dirOf is the project directory a request names: ?directory=, else the
// x-opencode-directory header, else the server's own.
func (s *Server) dirOf(r *http.Request) string {
	if d := r.URL.Query().Get("directory"); d != "" {
		return d
	}
	if d := r.Header.Get("x-opencode-directory"); d != "" {
		return d
	}
	return s.opts.Directory
}

// v118ListLimit is how many sessions 1.18's GET /session lists, the most
// recently updated, when the request names no limit (1.1 lists them all).
const v118ListLimit = 100

func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) {
	dir := s.dirOf(r)
	roots := r.URL.Query().Get("roots") == "true"
	s.mu.Lock()
	out := s.st.list(func(ss wire.Session) bool { return ss.Directory == dir && (!roots || ss.ParentID == "") })
	s.mu.Unlock()
	newestFirst(out)
	n, err := strconv.Atoi(r.URL.Query().Get("limit"))
	if err != nil && s.opts.Version != V11 {
		n = v118ListLimit // what 1.18 lists when no limit is asked
	}
	if n > 0 && n < len(out) {
		out = out[:n]
	}
	s.writeJSON(w, 200, out)
}

// globalSessions is GET /experimental/session (1.18 only): every
// directory's sessions, paged by limit, the next page's cursor in the
// x-next-cursor header (here an index).
func (s *Server) globalSessions(w http.ResponseWriter, r *http.Request) {
	if s.opts.Version == V11 {
		s.fail(w, 500, "UnknownError", "Error: Unable to connect. Is the computer able to access the url?")
		return
	}
	all := s.Sessions()
	start, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
	limit, err := strconv.Atoi(r.URL.Query().Get("limit"))
	if err != nil || limit <= 0 {
		limit = len(all)
	}
	start = min(max(start, 0), len(all))
	end := min(start+limit, len(all))
	if end < len(all) {
		w.Header().Set("x-next-cursor", strconv.Itoa(end))
	}
	s.writeJSON(w, 200, all[start:end])
}

func (s *Server) statuses(w http.ResponseWriter, r *http.Request) {
	dir := s.dirOf(r)
	s.mu.Lock()
	out := map[string]wire.SessionStatus{}
	for id, st := range s.st.status {
		// A session the fake does not hold counts as the server's own.
		if ss, ok := s.st.sessions[id]; (ok && ss.Directory == dir) || (!ok && dir == s.opts.Directory) {
			out[id] = st
		}
	}
	s.mu.Unlock()
	s.writeJSON(w, 200, out)
}

func (s *Server) children(w http.ResponseWriter, r *http.Request, parent wire.Session) {
	s.mu.Lock()
	out := s.st.list(func(ss wire.Session) bool { return ss.ParentID == parent.ID })
	s.mu.Unlock()
	s.writeJSON(w, 200, out)
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request, ss wire.Session) {
	s.mu.Lock()
	out := nonNil(s.st.messages[ss.ID])
	var withPatches any
	if len(s.st.patches[ss.ID]) > 0 {
		withPatches = s.st.messagesWithPatches(ss.ID)
	}
	s.mu.Unlock()
	if withPatches != nil {
		s.writeJSON(w, 200, withPatches)
		return
	}
	if n, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && n > 0 && n < len(out) {
		out = out[len(out)-n:]
	}
	s.writeJSON(w, 200, out)
}
