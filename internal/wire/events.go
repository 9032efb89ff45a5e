package wire

import (
	"encoding/json"
	"fmt"
	"time"
)

// Event is one decoded message of the server's event stream. The concrete
// types below are the ones octop acts on; every other type decodes to
// Unknown, which callers ignore.
type Event interface {
	// EventType is the wire type, e.g. "session.created".
	EventType() string
}

// Envelope is an event with what came around it on the
type Envelope struct {
	ID        string // evt_… on 1.18; empty on 1.1
	Directory string // set on /global/event only
	Event     Event
	// Received is, for an event read from a stream, the earliest time its
	// last bytes may have reached octop's socket; zero otherwise.
	// OCTOP_TRACE times events from it.
	Received time.Time
}

// CaughtUp is sent by a paced stream (client.StreamOptions.Pace) each
// time every event it sent is all the server had sent: the moment to draw.
type CaughtUp struct{}

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
//
// Properties decode straight into one union of every field octop reads, so
// an event is parsed once whatever its type: decoding is nearly all of an
// event's cost, and a tool output can be megabytes.
type wireEvent struct {
	ID         string     `json:"id"`
	Type       string     `json:"type"`
	Properties *wireProps `json:"properties"`
	Directory  string     `json:"directory"`
	Payload    *wireEvent `json:"payload"`
}

// wireProps is the union of the properties octop reads. Info is a Session
// or a Message by the event's type; the request fields are the properties
// of permission.asked and question.asked themselves.
type wireProps struct {
	SessionID string         `json:"sessionID"`
	MessageID string         `json:"messageID"`
	PartID    string         `json:"partID"`
	RequestID string         `json:"requestID"`
	Info      *wireInfo      `json:"info"`
	Status    *SessionStatus `json:"status"`
	Error     *ErrorInfo     `json:"error"`
	Part      *Part          `json:"part"`
	Time      int64          `json:"time"`
	Field     string         `json:"field"`
	Delta     string         `json:"delta"`
	Reply     string         `json:"reply"`

	ID         string          `json:"id"`
	Permission string          `json:"permission"`
	Patterns   []string        `json:"patterns"`
	Metadata   json.RawMessage `json:"metadata"`
	Always     []string        `json:"always"`
	Tool       *RequestTool    `json:"tool"`
	Questions  []QuestionInfo  `json:"questions"`
	Todos      []Todo          `json:"todos"`
}

// wireInfo is the union of Session and Message. parentID means the parent
// session on a Session and the parent message on a Message.
type wireInfo struct {
	ID         string           `json:"id"`
	Slug       string           `json:"slug"`
	Version    string           `json:"version"`
	ProjectID  string           `json:"projectID"`
	Directory  string           `json:"directory"`
	ParentID   string           `json:"parentID"`
	Title      string           `json:"title"`
	Agent      string           `json:"agent"`
	Cost       float64          `json:"cost"`
	Tokens     Tokens           `json:"tokens"`
	Permission []PermissionRule `json:"permission"`
	Revert     *Revert          `json:"revert"`
	Time       struct {
		Created   int64 `json:"created"`
		Updated   int64 `json:"updated"`
		Completed int64 `json:"completed"`
	} `json:"time"`

	SessionID  string     `json:"sessionID"`
	Role       string     `json:"role"`
	Mode       string     `json:"mode"`
	ModelID    string     `json:"modelID"`
	ProviderID string     `json:"providerID"`
	Error      *ErrorInfo `json:"error"`
	Finish     string     `json:"finish"`
}

func (w *wireInfo) session() Session {
	return Session{
		ID: w.ID, Slug: w.Slug, Version: w.Version, ProjectID: w.ProjectID,
		Directory: w.Directory, ParentID: w.ParentID, Title: w.Title, Agent: w.Agent,
		Cost: w.Cost, Tokens: w.Tokens, Permission: w.Permission, Revert: w.Revert,
		Time: SessionTime{Created: w.Time.Created, Updated: w.Time.Updated},
	}
}

func (w *wireInfo) message() Message {
	return Message{
		ID: w.ID, SessionID: w.SessionID, Role: w.Role, ParentID: w.ParentID,
		Agent: w.Agent, Mode: w.Mode, ModelID: w.ModelID, ProviderID: w.ProviderID,
		Cost: w.Cost, Tokens: w.Tokens, Error: w.Error, Finish: w.Finish,
		Time: MessageTime{Created: w.Time.Created, Completed: w.Time.Completed},
	}
}

// DecodeEvent decodes one SSE data payload, from /event or /global/event.
// An unknown type is not an error; a malformed payload of a known type is.
func DecodeEvent(data []byte) (Envelope, error) { return decodeEvent(data, Unmarshal) }

// decodeEvent is DecodeEvent with the JSON decoder it uses (tests
// compare Unmarshal's with encoding/json's).
func decodeEvent(data []byte, unmarshal func([]byte, any) error) (Envelope, error) {
	var w wireEvent
	if err := unmarshal(data, &w); err != nil {
		// A type octop does not act on may use a property name of the union
		// with another shape; that is not an error, only not ours to read.
		if typ, dir, id, ok := peekType(data); ok && !knownType(typ) {
			return Envelope{ID: id, Directory: dir, Event: Unknown{Type: typ}}, nil
		}
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
	p := w.Properties
	if p == nil {
		p = &wireProps{}
	}
	ev, err := decodeProps(w.Type, p)
	if err != nil {
		return env, fmt.Errorf("malformed %s event: %w", w.Type, err)
	}
	env.Event = ev
	return env, nil
}

func decodeProps(typ string, p *wireProps) (Event, error) {
	switch typ {
	case "server.connected":
		return ServerConnected{}, nil
	case "server.heartbeat":
		return ServerHeartbeat{}, nil
	case "permission.asked":
		return PermissionAsked{Request: PermissionRequest{
			ID: p.ID, SessionID: p.SessionID, Permission: p.Permission, Patterns: p.Patterns,
			Metadata: p.Metadata, Always: p.Always, Tool: p.Tool,
		}}, nil
	case "question.asked":
		return QuestionAsked{Request: QuestionRequest{
			ID: p.ID, SessionID: p.SessionID, Questions: p.Questions, Tool: p.Tool,
		}}, nil
	case "session.created", "session.updated", "session.deleted":
		if p.Info == nil {
			return nil, fmt.Errorf("info: missing")
		}
		s := p.Info.session()
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
		if p.Info == nil {
			return nil, fmt.Errorf("info: missing")
		}
		m := p.Info.message()
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
	case "todo.updated":
		if p.SessionID == "" {
			return nil, fmt.Errorf("needs sessionID")
		}
		return TodoUpdated{SessionID: p.SessionID, Todos: p.Todos}, nil
	}
	return Unknown{Type: typ}, nil
}

// peekType reads only an event's type, id and directory.
func peekType(data []byte) (typ, dir, id string, ok bool) {
	var w struct {
		ID        string `json:"id"`
		Type      string `json:"type"`
		Directory string `json:"directory"`
		Payload   *struct {
			ID        string `json:"id"`
			Type      string `json:"type"`
			Directory string `json:"directory"`
		} `json:"payload"`
	}
	if json.Unmarshal(data, &w) != nil {
		return "", "", "", false
	}
	if w.Payload != nil {
		if w.Payload.Directory != "" {
			w.Directory = w.Payload.Directory
		}
		w.ID, w.Type = w.Payload.ID, w.Payload.Type
	}
	return w.Type, w.Directory, w.ID, w.Type != ""
}

// knownType says whether octop acts on an event type.
func knownType(typ string) bool {
	switch typ {
	case "server.connected", "server.heartbeat", "permission.asked", "question.asked",
		"session.created", "session.updated", "session.deleted", "session.status",
		"session.idle", "session.error", "message.updated", "message.removed",
		"message.part.updated", "message.part.removed", "message.part.delta",
		"permission.replied", "question.replied", "question.rejected", "todo.updated":
		return true
	}
	return false
}
