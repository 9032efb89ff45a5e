package record

import (
	"sync"

	"github.com/octop-dev/octop/internal/transcript"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Recorded is what a recording has shown so far, kept so that a replay
// answers the screen's read-only rooms (a result, a transcript, the files
// changed) the way the server would have at that point of the recording.
// It is fed every message the player sends (Observe) and every snapshot
// the screen reads; it is safe for the player's and the screen's
// goroutines at once.
type Recorded struct {
	mu       sync.Mutex
	sessions map[string]wire.Session
	status   map[string]wire.SessionStatus
	msgs     map[string]*transcript.Live
}

// NewRecorded returns an empty record.
func NewRecorded() *Recorded {
	r := &Recorded{}
	r.Reset()
	return r
}

// Reset forgets everything: the recording starts over (the demo's loop).
func (r *Recorded) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sessions = map[string]wire.Session{}
	r.status = map[string]wire.SessionStatus{}
	r.msgs = map[string]*transcript.Live{}
}

// Observe folds in one message the player sends; only stream events
// (wire.Envelope) matter.
func (r *Recorded) Observe(msg any) {
	env, ok := msg.(wire.Envelope)
	if !ok || env.Event == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch e := env.Event.(type) {
	case wire.SessionCreated:
		r.sessions[e.Info.ID] = e.Info
	case wire.SessionUpdated:
		r.sessions[e.Info.ID] = e.Info
	case wire.SessionDeleted:
		delete(r.sessions, e.Info.ID)
		delete(r.msgs, e.Info.ID)
	case wire.SessionStatusChanged:
		r.status[e.SessionID] = e.Status
	case wire.MessageUpdated:
		r.live(e.Info.SessionID).Apply(e)
	case wire.PartUpdated:
		r.live(e.Part.SessionID).Apply(e)
	case wire.PartDelta:
		r.live(e.SessionID).Apply(e)
	case wire.MessageRemoved:
		r.live(e.SessionID).Apply(e)
	case wire.PartRemoved:
		r.live(e.SessionID).Apply(e)
	}
}

// observeSnapshot folds in a recorded snapshot the screen read: its
// sessions, statuses and whole message lists.
func (r *Recorded) observeSnapshot(s model.Snapshot) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ses := range s.Sessions {
		r.sessions[ses.ID] = ses
	}
	for id, st := range s.Status {
		r.status[id] = st
	}
	for id, msgs := range s.Messages {
		r.msgs[id] = transcript.NewLive(id, msgs)
	}
}

// hasMessages says the recording has shown messages of session id.
func (r *Recorded) hasMessages(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.msgs[id] != nil
}

func (r *Recorded) live(id string) *transcript.Live {
	l := r.msgs[id]
	if l == nil {
		l = transcript.NewLive(id, nil)
		r.msgs[id] = l
	}
	return l
}

// session is what the recording says of one session so far: its info,
// its status (idle when none was seen) and a copy of its messages. ok is
// false when the recording has shown nothing of it.
func (r *Recorded) session(id string) (s wire.Session, st wire.SessionStatus, msgs []wire.MessageWithParts, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, known := r.sessions[id]
	l := r.msgs[id]
	if !known && l == nil {
		return s, st, nil, false
	}
	if s.ID == "" {
		s.ID = id
	}
	st, seen := r.status[id]
	if !seen {
		st = wire.SessionStatus{Type: wire.StatusIdle}
	}
	if l != nil {
		msgs = l.Messages()
	}
	return s, st, msgs, true
}
