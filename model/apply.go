package model

import "github.com/octop-dev/octop/internal/wire"

// Apply folds one event into the state. Unknown events are ignored.
//
// Apply is order-tolerant and idempotent for what the server can do: a
// child's events before its parent's session.created, parts or a status
// before their session is known (a placeholder with Known false stands in),
// and the same event twice.
func (s *State) Apply(ev wire.Event) {
	id, changed := s.apply(ev)
	if !changed {
		return
	}
	s.version++
	if ss := s.sessions[id]; ss != nil {
		s.changed(ss, s.version)
		if _, streamed := ev.(wire.PartDelta); !streamed {
			s.noteStop(ss, true)
			s.touchFollowers(ss, s.version) // streamed text never changes a state
		}
	}
}

// apply is Apply's change; it names the session the event is about, whose
// row must be drawn again.
func (s *State) apply(ev wire.Event) (session string, changed bool) {
	switch e := ev.(type) {
	case wire.SessionCreated, wire.SessionUpdated, wire.SessionDeleted,
		wire.SessionStatusChanged, wire.SessionIdle, wire.SessionError:
		return s.applySessionEvent(ev), true
	case wire.MessageUpdated, wire.MessageRemoved, wire.PartUpdated, wire.PartRemoved, wire.PartDelta:
		return s.applyContentEvent(ev), true
	case wire.PermissionAsked:
		s.addPermission(e.Request)
	case wire.PermissionReplied:
		s.dropPermission(e.RequestID)
	case wire.QuestionAsked:
		s.addQuestion(e.Request)
	case wire.QuestionReplied:
		s.dropQuestion(e.RequestID)
	case wire.QuestionRejected:
		s.dropQuestion(e.RequestID)
	case wire.TodoUpdated:
		if ss := s.sessions[e.SessionID]; ss != nil {
			s.reopen(ss)
			ss.more().todos = boundTodos(e.Todos)
		}
		return e.SessionID, true
	default:
		// server.connected, server.heartbeat and unknown types change nothing.
		return "", false
	}
	return "", true
}

// applySessionEvent folds a session's own lifecycle: created, updated,
// deleted, its status, its error. It returns the session's id.
func (s *State) applySessionEvent(ev wire.Event) string {
	switch e := ev.(type) {
	case wire.SessionCreated:
		s.upsertInfo(e.Info)
		if ss := s.sessions[e.Info.ID]; ss != nil {
			// Watched from its creation: the stream shows every message.
			ss.historyRead, ss.Loaded = true, true
		}
		return e.Info.ID
	case wire.SessionUpdated:
		s.upsertInfo(e.Info)
		return e.Info.ID
	case wire.SessionDeleted:
		s.remove(e.Info.ID)
	case wire.SessionStatusChanged:
		// A busy status may come before its session.created: keep it on a
		// placeholder. An idle one for an unknown id has nothing to show
		// (the server sends one when asked to abort an id it does not have).
		ss := s.sessions[e.SessionID]
		if ss == nil && e.Status.Type != wire.StatusIdle {
			ss = s.ensure(e.SessionID)
		}
		if ss != nil {
			s.setStatus(ss, e.Status)
		}
		return e.SessionID
	case wire.SessionIdle:
		if ss := s.sessions[e.SessionID]; ss != nil {
			s.setStatus(ss, wire.SessionStatus{Type: wire.StatusIdle})
		}
		return e.SessionID
	case wire.SessionError:
		if ss := s.sessions[e.SessionID]; ss != nil && e.Error != nil {
			s.reopen(ss)
			err := *e.Error
			ss.Err = &err
		}
		return e.SessionID
	}
	return ""
}

// applyContentEvent folds what a session says: its messages and their
// parts. It returns the session's id.
func (s *State) applyContentEvent(ev wire.Event) string {
	if ss := s.sessions[wire.SessionOf(ev)]; ss != nil {
		s.reopen(ss) // what it says goes beyond what a seal kept
	}
	switch e := ev.(type) {
	case wire.MessageUpdated:
		if ss := s.ensure(e.Info.SessionID); ss != nil {
			s.applyMessage(ss, &e.Info)
			if ss.newPrompt(&e.Info) {
				ss.Loaded = true // a run seen from its prompt on
			}
		}
		return e.Info.SessionID
	case wire.MessageRemoved:
		if ss := s.sessions[e.SessionID]; ss != nil {
			s.removeMessage(ss, e.MessageID)
		}
		return e.SessionID
	case wire.PartUpdated:
		if ss := s.ensure(e.Part.SessionID); ss != nil {
			s.applyPart(ss, &e.Part, e.Time)
		}
		return e.Part.SessionID
	case wire.PartRemoved:
		if ss := s.sessions[e.SessionID]; ss != nil {
			s.removePart(ss, e.PartID)
		}
		return e.SessionID
	case wire.PartDelta:
		if ss := s.sessions[e.SessionID]; ss != nil && e.Field == "text" {
			s.applyDelta(ss, e.MessageID, e.PartID, e.Delta)
		}
		return e.SessionID
	}
	return ""
}

// newPrompt says whether m is a prompt the session was given while the
// stream watched it, so its run is seen from the start. The server also
// sends an old prompt again (with its summary, after its run ended): a
// prompt older than the last update the server told of its session, or
// of a session it has not told of at all (a placeholder), was there
// before; its session's last run is still to be read.
func (ss *Session) newPrompt(m *wire.Message) bool {
	return m.Role == "user" && ss.Known && m.Time.Created >= ss.Updated
}

// upsertInfo takes a session's info from an event or a snapshot. An info
// older than the one held (by time.updated) only fills blanks, so a late
// duplicate cannot roll a title back.
func (s *State) upsertInfo(info wire.Session) {
	if info.ID == "" {
		return
	}
	ss := s.ensure(info.ID)
	if ss == nil {
		return
	}
	if info.Time.Updated > ss.Updated {
		s.reopen(ss) // it changed since it was sealed
	}
	fresh := !ss.Known || info.Time.Updated >= ss.Updated
	ss.Known = true
	s.noteUndecodable(info, fresh)
	if fresh || ss.Title == "" {
		ss.Title = boundTitle(info.Title)
	}
	if info.Agent != "" && ss.rd().agentMsg == "" && (fresh || ss.Agent == "") {
		ss.Agent = s.internStr(info.Agent)
	}
	if info.Directory != "" && (fresh || ss.Directory == "") {
		ss.Directory = s.internStr(info.Directory)
	}
	if info.Time.Updated > ss.Updated {
		ss.Updated = info.Time.Updated
	}
	if info.Time.Created != 0 && info.Time.Created != ss.Created {
		ss.Created = info.Time.Created
		s.treeV++
		s.resortChild(ss)
	}
	if fresh && !ss.sealed() { // sealed: the same info, its totals kept
		ss.setInfoTotals(info.Tokens.Sum(), info.Cost)
	}
	if fresh {
		s.setRevert(ss, info.Revert)
	}
	// A rename or a share moves time.updated too: the session was touched,
	// but its run did nothing then (see touch).
	ss.LastActive = max(ss.LastActive, info.Time.Updated)
	if info.ParentID != "" {
		s.setParent(ss, info.ParentID)
	}
	if ss.parent != nil && ss.TaskPartID == "" {
		s.linkByTitle(ss.parent)
	}
}

func (s *State) setStatus(ss *Session, st wire.SessionStatus) {
	ss.StatusKnown = true
	if st.Type != wire.StatusIdle {
		s.reopen(ss) // a sealed state is an idle one's
	}
	switch st.Type {
	case wire.StatusBusy:
		if !ss.Running() {
			// A new run: the error of the last one is history.
			ss.Err = nil
		}
		ss.run = runBusy
		ss.setRetry(Retry{})
	case wire.StatusRetry:
		if !ss.Running() {
			ss.Err = nil
		}
		ss.run = runRetry
		ss.setRetry(Retry{Attempt: st.Attempt, Message: boundHead(st.Message, maxLine), At: st.Next})
	default:
		ss.run = runIdle
		ss.setRetry(Retry{})
		ss.stopStreaming()
		// An idle session answers nothing: whatever it asked is void.
		if ss.waiting > 0 {
			s.dropRequestsOf(ss.ID)
		}
	}
}

// touch notes a time the session did something: a message, a part or a
// tool call started or ended (noteMsgTime also gives it to its run).
func (ss *Session) touch(t int64) {
	if t > ss.LastActive {
		ss.LastActive = t
	}
}

// sawEnd notes an end time of message msgID: a message completed, a part
// or a call ended.
func (ss *Session) sawEnd(msgID string, t int64) {
	if t > ss.RunEnd {
		ss.RunEnd = t
	}
	ss.noteMsgTime(msgID, t)
}

func (s *State) addPermission(r wire.PermissionRequest) {
	if r.ID == "" || s.ensure(r.SessionID) == nil {
		return // no session, or a deleted one
	}
	if old, ok := s.permissions[r.ID]; ok {
		s.waitingDelta(old.SessionID, -1)
	}
	s.permissions[r.ID] = r
	s.waitingDelta(r.SessionID, +1)
}

func (s *State) dropPermission(id string) {
	if old, ok := s.permissions[id]; ok {
		delete(s.permissions, id)
		s.waitingDelta(old.SessionID, -1)
	}
}

func (s *State) addQuestion(r wire.QuestionRequest) {
	if r.ID == "" || s.ensure(r.SessionID) == nil {
		return // no session, or a deleted one
	}
	if old, ok := s.questions[r.ID]; ok {
		s.waitingDelta(old.SessionID, -1)
	}
	s.questions[r.ID] = r
	s.waitingDelta(r.SessionID, +1)
}

func (s *State) dropQuestion(id string) {
	if old, ok := s.questions[id]; ok {
		delete(s.questions, id)
		s.waitingDelta(old.SessionID, -1)
	}
}

func (s *State) dropRequestsOf(sessionID string) {
	for id, p := range s.permissions {
		if p.SessionID == sessionID {
			s.dropPermission(id)
		}
	}
	for id, q := range s.questions {
		if q.SessionID == sessionID {
			s.dropQuestion(id)
		}
	}
}

func (s *State) waitingDelta(sessionID string, d int32) {
	if ss := s.sessions[sessionID]; ss != nil {
		if d > 0 {
			s.reopen(ss) // a sealed state asks nothing
		}
		ss.waiting += d
		// At the version the change in progress ends at; a child asking
		// or answered moves the parents that follow it too.
		s.changed(ss, s.version+1)
		s.touchFollowers(ss, s.version+1)
		if ss.waiting < 0 {
			ss.waiting = 0
		}
	}
}
