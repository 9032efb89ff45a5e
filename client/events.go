package client

import (
	"encoding/json"
	"fmt"
)

// Event is one decoded message of the server's event stream. The concrete
// types below are the ones octop acts on; every other type decodes to
// Unknown, which callers ignore.
type Event interface {
	// EventType is the wire type, e.g. "session.created".
	EventType() string
}

// Envelope is an event with what came around it on the wire.
type Envelope struct {
	ID        string // evt_… on 1.18; empty on 1.1
	Directory string // set on /global/event only
	Event     Event
}

// ServerConnected is the first event of every stream.
type ServerConnected struct{}

// ServerHeartbeat arrives periodically on an idle stream.
type ServerHeartbeat struct{}

// SessionCreated announces a new session; a child carries ParentID.
type SessionCreated struct{ Info Session }

// SessionUpdated carries a session's new info.
type SessionUpdated struct{ Info Session }

// SessionDeleted says a session is gone.
type SessionDeleted struct{ Info Session }

// SessionStatusChanged is session.status.
type SessionStatusChanged struct {
	SessionID string
	Status    SessionStatus
}

// SessionIdle is session.idle, sent when a session's run ends.
type SessionIdle struct{ SessionID string }

// SessionError is session.error, e.g. MessageAbortedError after an abort.
// SessionID may be empty for errors not tied to a session.
type SessionError struct {
	SessionID string
	Error     *ErrorInfo
}

// MessageUpdated carries a message's new info (tokens, cost, error).
type MessageUpdated struct{ Info Message }

// MessageRemoved says a message is gone.
type MessageRemoved struct{ SessionID, MessageID string }

// PartUpdated carries a part's new state. Time is the event's Unix ms
// timestamp where the server sends one (1.18), else 0.
type PartUpdated struct {
	Part Part
	Time int64
}

// PartRemoved says a part is gone.
type PartRemoved struct{ SessionID, MessageID, PartID string }

// PartDelta is streamed text appended to a part's Field (usually "text").
type PartDelta struct {
	SessionID, MessageID, PartID, Field, Delta string
}

// PermissionAsked is a new pending permission request.
type PermissionAsked struct{ Request PermissionRequest }

// PermissionReplied says a permission request was answered.
type PermissionReplied struct{ SessionID, RequestID, Reply string }

// QuestionAsked is a new pending question.
type QuestionAsked struct{ Request QuestionRequest }

// QuestionReplied says a question was answered.
type QuestionReplied struct{ SessionID, RequestID string }

// QuestionRejected says a question was dismissed.
type QuestionRejected struct{ SessionID, RequestID string }

// Unknown is any event type octop does not act on. It is not an error: the
// server adds types over time.
type Unknown struct{ Type string }

func (ServerConnected) EventType() string      { return "server.connected" }
func (ServerHeartbeat) EventType() string      { return "server.heartbeat" }
func (SessionCreated) EventType() string       { return "session.created" }
func (SessionUpdated) EventType() string       { return "session.updated" }
func (SessionDeleted) EventType() string       { return "session.deleted" }
func (SessionStatusChanged) EventType() string { return "session.status" }
func (SessionIdle) EventType() string          { return "session.idle" }
func (SessionError) EventType() string         { return "session.error" }
func (MessageUpdated) EventType() string       { return "message.updated" }
func (MessageRemoved) EventType() string       { return "message.removed" }
func (PartUpdated) EventType() string          { return "message.part.updated" }
func (PartRemoved) EventType() string          { return "message.part.removed" }
func (PartDelta) EventType() string            { return "message.part.delta" }
func (PermissionAsked) EventType() string      { return "permission.asked" }
func (PermissionReplied) EventType() string    { return "permission.replied" }
func (QuestionAsked) EventType() string        { return "question.asked" }
func (QuestionReplied) EventType() string      { return "question.replied" }
func (QuestionRejected) EventType() string     { return "question.rejected" }
func (u Unknown) EventType() string            { return u.Type }

// wireEvent is the JSON of one event: {"id","type","properties"}, or on
// /global/event {"directory","payload":{"id","type","properties"}}.
type wireEvent struct {
	ID         string          `json:"id"`
	Type       string          `json:"type"`
	Properties json.RawMessage `json:"properties"`
	Directory  string          `json:"directory"`
	Payload    *wireEvent      `json:"payload"`
}

// wireProps is the union of the properties octop reads.
type wireProps struct {
	SessionID string          `json:"sessionID"`
	MessageID string          `json:"messageID"`
	PartID    string          `json:"partID"`
	RequestID string          `json:"requestID"`
	Info      json.RawMessage `json:"info"`
	Status    *SessionStatus  `json:"status"`
	Error     *ErrorInfo      `json:"error"`
	Part      *Part           `json:"part"`
	Time      int64           `json:"time"`
	Field     string          `json:"field"`
	Delta     string          `json:"delta"`
	Reply     string          `json:"reply"`
}

// DecodeEvent decodes one SSE data payload, from /event or /global/event.
// An unknown type is not an error; a malformed payload of a known type is.
func DecodeEvent(data []byte) (Envelope, error) {
	var w wireEvent
	if err := json.Unmarshal(data, &w); err != nil {
		return Envelope{}, fmt.Errorf("malformed event: %w", err)
	}
	if w.Payload != nil {
		dir := w.Directory
		w = *w.Payload
		if w.Directory == "" {
			w.Directory = dir
		}
	}
	if w.Type == "" {
		return Envelope{}, fmt.Errorf("malformed event: no type")
	}
	env := Envelope{ID: w.ID, Directory: w.Directory}
	ev, err := decodeProps(w.Type, w.Properties)
	if err != nil {
		return env, fmt.Errorf("malformed %s event: %w", w.Type, err)
	}
	env.Event = ev
	return env, nil
}

func decodeProps(typ string, raw json.RawMessage) (Event, error) {
	switch typ {
	case "server.connected":
		return ServerConnected{}, nil
	case "server.heartbeat":
		return ServerHeartbeat{}, nil
	case "permission.asked":
		var r PermissionRequest
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, err
		}
		return PermissionAsked{Request: r}, nil
	case "question.asked":
		var r QuestionRequest
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, err
		}
		return QuestionAsked{Request: r}, nil
	}
	if !knownType(typ) {
		return Unknown{Type: typ}, nil
	}
	var p wireProps
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, err
		}
	}
	switch typ {
	case "session.created", "session.updated", "session.deleted":
		var s Session
		if err := json.Unmarshal(p.Info, &s); err != nil {
			return nil, fmt.Errorf("info: %w", err)
		}
		if s.ID == "" {
			return nil, fmt.Errorf("session has no id")
		}
		switch typ {
		case "session.created":
			return SessionCreated{Info: s}, nil
		case "session.updated":
			return SessionUpdated{Info: s}, nil
		}
		return SessionDeleted{Info: s}, nil
	case "session.status":
		if p.SessionID == "" || p.Status == nil {
			return nil, fmt.Errorf("needs sessionID and status")
		}
		return SessionStatusChanged{SessionID: p.SessionID, Status: *p.Status}, nil
	case "session.idle":
		if p.SessionID == "" {
			return nil, fmt.Errorf("needs sessionID")
		}
		return SessionIdle{SessionID: p.SessionID}, nil
	case "session.error":
		return SessionError{SessionID: p.SessionID, Error: p.Error}, nil
	case "message.updated":
		var m Message
		if err := json.Unmarshal(p.Info, &m); err != nil {
			return nil, fmt.Errorf("info: %w", err)
		}
		if m.ID == "" || m.SessionID == "" {
			return nil, fmt.Errorf("message needs id and sessionID")
		}
		return MessageUpdated{Info: m}, nil
	case "message.removed":
		return MessageRemoved{SessionID: p.SessionID, MessageID: p.MessageID}, nil
	case "message.part.updated":
		if p.Part == nil || p.Part.ID == "" || p.Part.SessionID == "" {
			return nil, fmt.Errorf("needs a part with id and sessionID")
		}
		return PartUpdated{Part: *p.Part, Time: p.Time}, nil
	case "message.part.removed":
		return PartRemoved{SessionID: p.SessionID, MessageID: p.MessageID, PartID: p.PartID}, nil
	case "message.part.delta":
		return PartDelta{SessionID: p.SessionID, MessageID: p.MessageID, PartID: p.PartID, Field: p.Field, Delta: p.Delta}, nil
	case "permission.replied":
		return PermissionReplied{SessionID: p.SessionID, RequestID: p.RequestID, Reply: p.Reply}, nil
	case "question.replied":
		return QuestionReplied{SessionID: p.SessionID, RequestID: p.RequestID}, nil
	case "question.rejected":
		return QuestionRejected{SessionID: p.SessionID, RequestID: p.RequestID}, nil
	}
	return Unknown{Type: typ}, nil
}

func knownType(typ string) bool {
	switch typ {
	case "session.created", "session.updated", "session.deleted", "session.status",
		"session.idle", "session.error", "message.updated", "message.removed",
		"message.part.updated", "message.part.removed", "message.part.delta",
		"permission.replied", "question.replied", "question.rejected":
		return true
	}
	return false
}
