package opencodetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"strings"

	"github.com/octop-dev/octop/internal/wire"
)

// Patch is a patch part: at the end of a step, the step's start snapshot
// (Hash) and the files of the worktree that changed during the step
// (absolute paths), whoever changed them.
type Patch struct {
	MessageID string
	Hash      string
	Files     []string
}

// AddPatch appends a patch part to a stored message of session id (set
// the messages first): GET /session/{id}/message lists it after the
// message's own parts, with a step-start part of the same snapshot before
// them, and a revert restores its files.
func (s *Server) AddPatch(id string, p Patch) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.patches == nil {
		s.st.patches = map[string][]Patch{}
	}
	s.st.patches[id] = append(s.st.patches[id], p)
}

// SetFileLines says how many lines a file has, for the diff a revert
// answers with (each restored file is deleted there; 1 line when unset).
func (s *Server) SetFileLines(file string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.lines == nil {
		s.st.lines = map[string]int{}
	}
	s.st.lines[file] = n
}

// messagesWithPatches is a session's messages as the server lists them,
// each message's patch parts after its own parts.
func (st *state) messagesWithPatches(id string) any {
	msgs := nonNil(st.messages[id])
	if len(st.patches[id]) == 0 {
		return msgs
	}
	type message struct {
		Info  wire.Message `json:"info"`
		Parts []any        `json:"parts"`
	}
	out := make([]message, len(msgs))
	for i, m := range msgs {
		out[i] = message{Info: m.Info, Parts: []any{}}
		for n, p := range st.patches[id] {
			if p.MessageID == m.Info.ID { // the step began from the patch's snapshot
				out[i].Parts = append(out[i].Parts, map[string]any{"id": fmt.Sprintf("prt_start%d", n), "sessionID": id,
					"messageID": p.MessageID, "type": "step-start", "snapshot": p.Hash})
			}
		}
		for _, p := range m.Parts {
			out[i].Parts = append(out[i].Parts, p)
		}
		for n, p := range st.patches[id] {
			if p.MessageID == m.Info.ID {
				out[i].Parts = append(out[i].Parts, map[string]any{"id": fmt.Sprintf("prt_patch%d", n), "sessionID": id,
					"messageID": p.MessageID, "type": "patch", "hash": p.Hash, "files": p.Files})
			}
		}
	}
	return out
}

// revert is POST /session/{id}/revert as the real server answers it
// (measured on 1.18.33 and 1.1.65): busy refused, a malformed message id
// a 400, an unknown one the session unchanged; else the files of every
// patch part from that message on are "restored" (the answer's diff
// deletes them) and the session carries revert until an unrevert.
func (s *Server) revert(w http.ResponseWriter, r *http.Request, ss wire.Session) {
	var req struct {
		MessageID string `json:"messageID"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refuseBusyLocked(w, ss.ID) {
		return
	}
	if !strings.HasPrefix(req.MessageID, "msg") {
		s.writeJSON(w, 400, map[string]any{"name": "BadRequest", "data": map[string]string{"message": `Expected a string starting with "msg"`}})
		return
	}
	at, user := -1, ""
	for i, m := range s.st.messages[ss.ID] {
		if m.Info.Role == "user" {
			user = m.Info.ID
		}
		if m.Info.ID == req.MessageID {
			at = i
			break
		}
	}
	if at < 0 {
		s.writeJSON(w, 200, ss)
		return
	}
	var diff strings.Builder
	seen := map[string]bool{}
	for _, m := range s.st.messages[ss.ID][at:] {
		for _, p := range s.st.patches[ss.ID] {
			for _, f := range p.Files {
				if p.MessageID == m.Info.ID && !seen[f] {
					seen[f] = true
					diff.WriteString(s.st.deletedDiff(strings.TrimPrefix(f, ss.Directory+"/")))
				}
			}
		}
	}
	rev := &wire.Revert{MessageID: user, Snapshot: "snap" + fmt.Sprint(s.st.clock), Diff: strings.TrimSuffix(diff.String(), "\n")}
	if ss.Revert != nil {
		rev.Snapshot = ss.Revert.Snapshot
	}
	ss.Revert = rev
	s.updateLocked(w, ss)
}

// unrevert is POST /session/{id}/unrevert: busy refused, else revert gone.
func (s *Server) unrevert(w http.ResponseWriter, r *http.Request, ss wire.Session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refuseBusyLocked(w, ss.ID) {
		return
	}
	if ss.Revert == nil {
		s.writeJSON(w, 200, ss)
		return
	}
	ss.Revert = nil
	s.updateLocked(w, ss)
}

// updateLocked stores a changed session, moves its time.updated, sends
// session.updated and answers with it.
func (s *Server) updateLocked(w http.ResponseWriter, ss wire.Session) {
	ss.Time.Updated = s.st.tick()
	s.st.sessions[ss.ID] = ss
	s.emitLocked("session.updated", map[string]any{"sessionID": ss.ID, "info": ss}, ss.Directory)
	s.writeJSON(w, 200, ss)
}

// refuseBusyLocked answers a busy session's revert as each version does.
func (s *Server) refuseBusyLocked(w http.ResponseWriter, id string) bool {
	if _, busy := s.st.status[id]; !busy {
		return false
	}
	if s.opts.Version == V11 {
		s.fail(w, 500, "UnknownError", "Error: Session "+id+" is busy\n    at assertNotBusy (src/session/prompt.ts:88:34)")
	} else {
		s.writeJSON(w, 409, map[string]string{"_tag": "SessionBusyError", "sessionID": id, "message": "Session is busy: " + id})
	}
	return true
}

// deletedDiff is the git diff that deletes file, of its lines.
func (st *state) deletedDiff(file string) string {
	n := st.lines[file]
	if n == 0 {
		n = 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git a/%s b/%s\ndeleted file mode 100644\nindex 1111111..0000000\n--- a/%s\n+++ /dev/null\n@@ -1,%d +0,0 @@\n", file, file, file, n)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "-%s line %d\n", path.Base(file), i)
	}
	return b.String()
}
