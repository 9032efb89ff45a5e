package wire

import "encoding/json"

// Session is an OpenCode session as GET /session and the session.* events
// carry it. A child session has ParentID set.
type Session struct {
	ID         string           `json:"id"`
	Slug       string           `json:"slug,omitempty"`
	Version    string           `json:"version,omitempty"`
	ProjectID  string           `json:"projectID,omitempty"`
	Directory  string           `json:"directory,omitempty"`
	ParentID   string           `json:"parentID,omitempty"`
	Title      string           `json:"title"`
	Agent      string           `json:"agent,omitempty"`
	Cost       float64          `json:"cost,omitempty"`
	Tokens     Tokens           `json:"tokens"`
	Permission []PermissionRule `json:"permission,omitempty"`
	Time       SessionTime      `json:"time"`
	// Revert is set while the session's last messages are undone (see
	// Revert); absent otherwise.
	Revert *Revert `json:"revert,omitempty"`
	// Undecodable is set by the client, never sent: the session did not
	// decode, and this says why ("title is a number"). Its id did, and
	// what else did is kept, so it can be shown where it belongs.
	Undecodable string `json:"-"`
}

// SessionTime holds a session's timestamps in Unix milliseconds.
type SessionTime struct {
	Created int64 `json:"created"`
	Updated int64 `json:"updated"`
}

// Tokens counts a message's or a session's tokens.
type Tokens struct {
	Total     float64     `json:"total,omitempty"`
	Input     float64     `json:"input"`
	Output    float64     `json:"output"`
	Reasoning float64     `json:"reasoning"`
	Cache     TokensCache `json:"cache"`
}

// TokensCache counts cached tokens.
type TokensCache struct {
	Read  float64 `json:"read"`
	Write float64 `json:"write"`
}

// Sum is every token counted once: input, output, reasoning and cache.
func (t Tokens) Sum() float64 {
	return t.Input + t.Output + t.Reasoning + t.Cache.Read + t.Cache.Write
}

// PermissionRule is one rule of a session's permission ruleset.
type PermissionRule struct {
	Permission string `json:"permission"`
	Pattern    string `json:"pattern"`
	Action     string `json:"action"` // allow, deny, ask
}

// Status types a session can be in. GET /session/status lists only the
// sessions that are not idle.
const (
	StatusIdle  = "idle"
	StatusBusy  = "busy"
	StatusRetry = "retry"
)

// SessionStatus is a session's run state.
type SessionStatus struct {
	Type    string `json:"type"`
	Attempt int    `json:"attempt,omitempty"`
	Message string `json:"message,omitempty"`
	Next    int64  `json:"next,omitempty"` // Unix ms of the next retry
}

// ErrorInfo is the error a message or a session.error event carries, e.g.
// {name: "MessageAbortedError", data: {message: "Aborted"}}.
type ErrorInfo struct {
	Name string        `json:"name"`
	Data ErrorInfoData `json:"data"`
}

// ErrorInfoData is the payload of an ErrorInfo.
type ErrorInfoData struct {
	Message string `json:"message,omitempty"`
}

// Message is a message's info: a user prompt or an assistant reply.
type Message struct {
	ID         string      `json:"id"`
	SessionID  string      `json:"sessionID"`
	Role       string      `json:"role"` // user, assistant
	ParentID   string      `json:"parentID,omitempty"`
	Agent      string      `json:"agent,omitempty"`
	Mode       string      `json:"mode,omitempty"`
	ModelID    string      `json:"modelID,omitempty"`
	ProviderID string      `json:"providerID,omitempty"`
	Cost       float64     `json:"cost,omitempty"`
	Tokens     Tokens      `json:"tokens"`
	Error      *ErrorInfo  `json:"error,omitempty"`
	Finish     string      `json:"finish,omitempty"`
	Time       MessageTime `json:"time"`
	// Summary is set on user messages only (REST; events leave it out).
	Summary *MessageSummary `json:"summary,omitempty"`
}

// MessageTime holds a message's timestamps in Unix milliseconds.
type MessageTime struct {
	Created   int64 `json:"created"`
	Completed int64 `json:"completed,omitempty"`
}

// MessageWithParts is one element of GET /session/{id}/message.
type MessageWithParts struct {
	Info  Message `json:"info"`
	Parts []Part  `json:"parts"`
}

// Part types that octop reads. Others (patch, agent, subtask, …) decode
// into Part with only the common fields set.
const (
	PartText       = "text"
	PartReasoning  = "reasoning"
	PartTool       = "tool"
	PartStepStart  = "step-start"
	PartStepFinish = "step-finish"
)

// Part is one part of a message. Its Type says which fields are set: Text
// for text and reasoning, Tool/CallID/State for tool, Tokens/Cost for
// step-finish.
type Part struct {
	ID        string `json:"id"`
	SessionID string `json:"sessionID"`
	MessageID string `json:"messageID"`
	Type      string `json:"type"`
	Text      string `json:"text,omitempty"`
	// Synthetic marks a text the server wrote, not the person: on 1.18, a
	// background task's end notice to its parent (see model.ParseNotice).
	Synthetic bool       `json:"synthetic,omitempty"`
	Tool      string     `json:"tool,omitempty"`
	CallID    string     `json:"callID,omitempty"`
	State     *ToolState `json:"state,omitempty"`
	Reason    string     `json:"reason,omitempty"`
	Tokens    *Tokens    `json:"tokens,omitempty"`
	Cost      float64    `json:"cost,omitempty"`
	Time      *PartTime  `json:"time,omitempty"`
}

// PartTime holds a text part's timestamps in Unix milliseconds.
type PartTime struct {
	Start int64 `json:"start,omitempty"`
	End   int64 `json:"end,omitempty"`
}

// Tool call states.
const (
	ToolPending   = "pending"
	ToolRunning   = "running"
	ToolCompleted = "completed"
	ToolError     = "error"
)

// ToolState is a tool part's state. Input and Metadata stay raw: their
// shape depends on the tool.
type ToolState struct {
	Status   string          `json:"status"`
	Input    json.RawMessage `json:"input,omitempty"`
	Output   string          `json:"output,omitempty"`
	Title    string          `json:"title,omitempty"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
	Error    string          `json:"error,omitempty"`
	Time     ToolTime        `json:"time"`
}

// ToolTime holds a tool call's timestamps in Unix milliseconds.
type ToolTime struct {
	Start int64 `json:"start,omitempty"`
	End   int64 `json:"end,omitempty"`
}

// Agent is one agent from GET /agent.
type Agent struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Mode        string `json:"mode"` // primary, subagent, all
	Hidden      bool   `json:"hidden,omitempty"`
	Native      bool   `json:"native,omitempty"`
	// Permission is the agent's own ruleset, defaults merged in. The
	// native task tool lets a child spawn tasks only when it names "task".
	Permission []PermissionRule `json:"permission,omitempty"`
}

// PermissionRequest is a pending permission ask (GET /permission,
// permission.asked).
type PermissionRequest struct {
	ID         string          `json:"id"`
	SessionID  string          `json:"sessionID"`
	Permission string          `json:"permission"`
	Patterns   []string        `json:"patterns,omitempty"`
	Metadata   json.RawMessage `json:"metadata,omitempty"`
	Always     []string        `json:"always,omitempty"`
	Tool       *RequestTool    `json:"tool,omitempty"`
}

// RequestTool names the tool call a permission or question came from.
type RequestTool struct {
	MessageID string `json:"messageID"`
	CallID    string `json:"callID"`
}

// QuestionRequest is a pending question (GET /question, question.asked).
type QuestionRequest struct {
	ID        string         `json:"id"`
	SessionID string         `json:"sessionID"`
	Questions []QuestionInfo `json:"questions"`
	Tool      *RequestTool   `json:"tool,omitempty"`
}

// QuestionInfo is one question of a QuestionRequest.
type QuestionInfo struct {
	Question string           `json:"question"`
	Header   string           `json:"header"`
	Options  []QuestionOption `json:"options"`
	Multiple bool             `json:"multiple,omitempty"`
	// Custom says whether a typed answer is allowed; the server's default,
	// when it sends none, is yes. Read it with AllowsTyped.
	Custom *bool `json:"custom,omitempty"`
}

// AllowsTyped says whether the question accepts an answer of one's own
// besides its options.
func (q QuestionInfo) AllowsTyped() bool { return q.Custom == nil || *q.Custom }

// QuestionOption is one choice of a question.
type QuestionOption struct {
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
}

// Health is GET /global/health.
type Health struct {
	Healthy bool   `json:"healthy"`
	Version string `json:"version"`
}
