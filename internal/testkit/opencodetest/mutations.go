package opencodetest

import (
	"encoding/json"
	"net/http"
	"regexp"

	"github.com/octop-dev/octop/internal/wire"
)

// createSession is POST /session {parentID?, title?, permission?}.
func (s *Server) createSession(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ParentID   string                `json:"parentID"`
		Title      string                `json:"title"`
		Permission []wire.PermissionRule `json:"permission"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		s.writeJSON(w, 400, map[string]string{"_tag": "InvalidRequestError", "message": err.Error()})
		return
	}
	if req.Title == "" {
		req.Title = "New session"
	}
	s.mu.Lock()
	ss := s.st.put(wire.Session{ParentID: req.ParentID, Title: req.Title, Permission: req.Permission}, s.opts)
	s.emitLocked("session.created", map[string]any{"sessionID": ss.ID, "info": ss}, ss.Directory)
	s.mu.Unlock()
	s.writeJSON(w, 200, ss)
}

// deleteSession removes a session and everything below it.
func (s *Server) deleteSession(w http.ResponseWriter, r *http.Request, ss wire.Session) {
	s.mu.Lock()
	s.deleteLocked(ss.ID)
	s.mu.Unlock()
	s.writeJSON(w, 200, true)
}

func (s *Server) deleteLocked(id string) {
	ss, ok := s.st.sessions[id]
	if !ok {
		return
	}
	for _, kid := range s.st.list(func(c wire.Session) bool { return c.ParentID == id }) {
		s.deleteLocked(kid.ID)
	}
	delete(s.st.sessions, id)
	delete(s.st.status, id)
	delete(s.st.messages, id)
	for i, x := range s.st.order {
		if x == id {
			s.st.order = append(s.st.order[:i], s.st.order[i+1:]...)
			break
		}
	}
	s.emitLocked("session.deleted", map[string]any{"sessionID": id, "info": ss}, ss.Directory)
}

var sessionIDShape = regexp.MustCompile(`^ses_[0-9A-Za-z]+$`)

// abort stops a busy session: it goes idle with a MessageAbortedError,
// as on a real server. Any id answers true, even an unknown one; a
// malformed one is a 500 on 1.18.
func (s *Server) abort(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !sessionIDShape.MatchString(id) && s.opts.Version != V11 {
		s.fail(w, 500, "UnknownError", "Unexpected server error. Check server logs for details.")
		return
	}
	s.mu.Lock()
	if _, busy := s.st.status[id]; busy {
		delete(s.st.status, id)
		dir := s.st.sessions[id].Directory
		s.emitLocked("session.status", map[string]any{"sessionID": id, "status": wire.SessionStatus{Type: wire.StatusIdle}}, dir)
		s.emitLocked("session.error", map[string]any{"sessionID": id, "error": wire.ErrorInfo{
			Name: "MessageAbortedError", Data: wire.ErrorInfoData{Message: "The operation was aborted."}}}, dir)
		s.emitLocked("session.idle", map[string]any{"sessionID": id}, dir)
	}
	s.mu.Unlock()
	s.writeJSON(w, 200, true)
}

// replyPermission is POST /permission/{id}/reply {reply, message?}.
func (s *Server) replyPermission(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var body struct {
		Reply string `json:"reply"`
	}
	_ = json.NewDecoder(r.Body).Decode(&body)
	s.mu.Lock()
	defer s.mu.Unlock()
	i := indexOf(s.st.permissions, func(p wire.PermissionRequest) bool { return p.ID == id })
	if i < 0 {
		s.requestNotFound(w, "PermissionNotFoundError", "Permission request not found: "+id, id)
		return
	}
	p := s.st.permissions[i]
	s.st.permissions = append(s.st.permissions[:i], s.st.permissions[i+1:]...)
	s.emitLocked("permission.replied", map[string]any{"sessionID": p.SessionID, "requestID": id, "reply": body.Reply}, "")
	s.writeJSON(w, 200, true)
}

// replyQuestion answers or dismisses a question, emitting typ.
func (s *Server) replyQuestion(typ string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		s.mu.Lock()
		defer s.mu.Unlock()
		i := indexOf(s.st.questions, func(q wire.QuestionRequest) bool { return q.ID == id })
		if i < 0 {
			s.requestNotFound(w, "QuestionNotFoundError", "Question request not found: "+id, id)
			return
		}
		q := s.st.questions[i]
		s.st.questions = append(s.st.questions[:i], s.st.questions[i+1:]...)
		s.emitLocked(typ, map[string]any{"sessionID": q.SessionID, "requestID": id}, "")
		s.writeJSON(w, 200, true)
	}
}

// requestNotFound answers a reply to an unknown request: a 404 in 1.18's
// shape, or true on 1.1.65, which does not check.
func (s *Server) requestNotFound(w http.ResponseWriter, tag, msg, id string) {
	if s.opts.Version == V11 {
		s.writeJSON(w, 200, true)
		return
	}
	s.writeJSON(w, 404, map[string]string{"_tag": tag, "requestID": id, "message": msg})
}

func indexOf[T any](xs []T, match func(T) bool) int {
	for i, x := range xs {
		if match(x) {
			return i
		}
	}
	return -1
}
