package model

import (
	"slices"
	"sort"

	"github.com/octop-dev/octop/internal/wire"
)

// ApplySnapshot folds a full REST read into the state, over whatever the
// stream built so far. The snapshot wins where it speaks:
//   - every session it lists is known, with its parent;
//   - a session it covers (listed, or in the status map) and absent from
//     the status map is idle, whatever the stream said before;
//   - the pending permissions and questions are exactly its lists, but
//     a list it could not read (PermissionsUnread, QuestionsUnread)
//     leaves those requests as they were: a failed read says nothing
//     of what is pending, and taking it for "none" would tell a waiting
//     session answered, then waiting again at the next read;
//   - with Messages for a session, its tool calls and texts are updated
//     from them, and its error is that of its latest assistant message.
//
// Sessions it does not cover keep what they had, unless Complete is set,
// in which case known sessions it does not list are dropped as deleted.
func (s *State) ApplySnapshot(snap Snapshot) {
	listed := make(map[string]bool, len(snap.Sessions))
	for _, info := range snap.Sessions {
		if info.ID == "" {
			continue
		}
		// A listed id is alive, whatever a deletion said earlier.
		delete(s.deleted, info.ID)
		listed[info.ID] = true
		if ss := s.sessions[info.ID]; ss != nil && (info.Time.Updated > ss.Updated || ss.Running()) {
			// It changed, or may have, while the stream was not
			// watching: what it showed of the last run is stale.
			ss.historyRead, ss.Loaded = false, false
		}
		s.upsertInfo(info)
	}
	if snap.Complete {
		var gone []string
		for id, ss := range s.sessions {
			if ss.Known && !listed[id] {
				gone = append(gone, id)
			}
		}
		for _, id := range gone {
			s.remove(id)
		}
	}

	// Requests first: a session going idle below drops its requests, and
	// the lists read are the truth anyway.
	if snap.PermissionsUnread == "" {
		for id := range s.permissions {
			s.dropPermission(id)
		}
	}
	if snap.QuestionsUnread == "" {
		for id := range s.questions {
			s.dropQuestion(id)
		}
	}

	for id := range listed {
		st, ok := snap.Status[id]
		if !ok {
			st = wire.SessionStatus{Type: wire.StatusIdle}
		}
		s.setStatus(s.sessions[id], st)
	}
	for id, st := range snap.Status {
		if listed[id] {
			continue
		}
		if ss := s.ensure(id); ss != nil {
			s.setStatus(ss, st)
		}
	}

	for _, r := range snap.Permissions {
		s.addPermission(r)
	}
	for _, r := range snap.Questions {
		s.addQuestion(r)
	}

	s.applyMessages(snap.Messages)
	s.stopsFrom(snap.Stops)
	s.version++
	s.treeV++
	for _, ss := range s.list {
		ss.rev = s.version // a snapshot may have changed any of them
		if ss.stop != stopNone || !ss.Running() && ss.Loaded {
			s.noteStop(ss, false)
		}
	}
	s.changedAll()
}

// ApplyMessages folds in the whole message history of some sessions (the
// history loader's reads): tool calls, texts, tokens, and the error of the
// latest reply. The sessions are Loaded afterwards.
func (s *State) ApplyMessages(history map[string][]wire.MessageWithParts) {
	if len(history) == 0 {
		return
	}
	s.applyMessages(history)
	s.version++
	for id := range history {
		if ss := s.sessions[id]; ss != nil {
			s.changed(ss, s.version)
			s.noteStop(ss, false)
			s.touchFollowers(ss, s.version)
		}
	}
}

func (s *State) applyMessages(history map[string][]wire.MessageWithParts) {
	for id, msgs := range history {
		ss := s.sessions[id]
		if ss == nil {
			continue // deleted meanwhile, or never listed
		}
		s.reopen(ss) // a sealed session is read again whole
		ss.historyRead, ss.Loaded = true, true
		for i := range msgs {
			s.applyMessage(ss, &msgs[i].Info)
			for j := range msgs[i].Parts {
				s.applyPart(ss, &msgs[i].Parts[j], 0)
			}
		}
		// The REST messages say how the last run ended; a session.error
		// the stream gave before a later, clean run is stale, and so is
		// the error of a reply older than the newest prompt: that prompt's
		// run has not answered yet (a resume of an aborted session).
		a := ss.latestAssistant()
		switch {
		case a != nil && a.id < ss.lastUserID():
			ss.Err = nil
		case a != nil && a.err != nil && !ss.Running():
			e := *a.err
			ss.Err = &e
		case a != nil && a.err == nil:
			ss.Err = nil
		}
		ss.rebuildRuns() // the history may have come in any order
		// A history read whole is mostly done growing: the room insertAt
		// left would stay unused.
		if cap(ss.Tools) > len(ss.Tools) {
			ss.Tools = slices.Clone(ss.Tools)
		}
		if cap(ss.runs) > len(ss.runs) {
			ss.runs = slices.Clone(ss.runs)
		}
	}
}

// NeedsHistory lists the sessions whose messages have not been read,
// most recently updated first: the order a history loader reads them in,
// so what a person most likely looks at fills in first.
func (s *State) NeedsHistory() []string {
	var need []*Session
	for _, ss := range s.list {
		if ss.Known && !ss.historyRead {
			need = append(need, ss)
		}
	}
	sort.Slice(need, func(i, j int) bool {
		if need[i].Updated != need[j].Updated {
			return need[i].Updated > need[j].Updated
		}
		return need[i].ID > need[j].ID
	})
	ids := make([]string, len(need))
	for i, ss := range need {
		ids[i] = ss.ID
	}
	return ids
}

// HasHistory reports whether every message of the session has been read
// or watched, so its state and counts are whole.
func (s *State) HasHistory(id string) bool {
	ss := s.sessions[id]
	return ss != nil && ss.historyRead
}
