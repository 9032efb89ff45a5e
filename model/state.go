// Package model turns a REST snapshot plus the server's event stream into
// the parent/child session tree, with each session's live tool calls.
//
// It is pure: no I/O, no goroutines, no clock (time arrives with the data),
// no Bubble Tea. A State is owned by one goroutine; Apply and ApplySnapshot
// change it deterministically.
package model

import "github.com/octop-dev/octop/client"

// Run is a session's run state as the server reports it.
type Run int

const (
	RunIdle Run = iota
	RunBusy
	RunRetry
)

// Display is the one status a person sees for a session, derived from its
// run state, its last error and its pending requests.
type Display int

const (
	DisplayIdle    Display = iota // idle, finished cleanly (or never ran)
	DisplayBusy                   // working
	DisplayRetry                  // waiting to retry after a provider error
	DisplayWaiting                // blocked on a permission or a question
	DisplayError                  // its last run ended in an error (aborted included)
)

// ToolStatus mirrors the server's tool states.
type ToolStatus int

const (
	ToolPending ToolStatus = iota
	ToolRunning
	ToolCompleted
	ToolError
)

// ToolCall is one tool call of a session: the summary the native task tool
// keeps for its children, plus times, an error and an input digest.
type ToolCall struct {
	PartID     string
	MessageID  string
	CallID     string
	Tool       string
	Status     ToolStatus
	Title      string
	Input      string // one-line digest: the bash command, the file path, the pattern
	Start, End int64  // Unix ms; 0 when unknown
	Error      string
	OutputHead string // first bytes of the output only, so memory stays bounded
	ChildID    string // for task calls: the child session it started, once known
}

// Session is one node of the tree.
type Session struct {
	ID        string
	Title     string
	Agent     string
	ParentID  string
	Directory string
	Version   string
	Created   int64 // Unix ms
	Updated   int64 // Unix ms
	// Known is false for a placeholder made because an event named this
	// session before its session.created arrived.
	Known bool

	Run      Run
	Attempt  int    // retry attempt, when Run is RunRetry
	RetryMsg string // retry message
	RetryAt  int64  // Unix ms of the next retry
	// Err is the error the last run ended with (e.g. MessageAbortedError);
	// cleared when the session goes busy again.
	Err *client.ErrorInfo

	Children []string // ids, in creation order
	Tools    []ToolCall

	Tokens   float64 // this session's own tokens
	Cost     float64 // this session's own cost
	LastText string  // the last assistant text, bounded
	// LastActive is the latest time (Unix ms) seen in this session's data;
	// follow mode picks the busy session with the largest one.
	LastActive int64
}

// Snapshot is a full REST read of the server: what GET /session,
// GET /session/status and (optionally) the messages of busy sessions say.
type Snapshot struct {
	Sessions    []client.Session
	Status      map[string]client.SessionStatus
	Messages    map[string][]client.MessageWithParts // by session id; may be nil
	Permissions []client.PermissionRequest
	Questions   []client.QuestionRequest
}

// Totals are tokens and cost rolled up over a subtree.
type Totals struct {
	Tokens float64
	Cost   float64
}

// Counts summarise one session for a row or a header.
type Counts struct {
	ToolsRunning, ToolsDone, ToolsFailed int
	Children                             int
	// Descendants running (busy or retrying) below this session, any depth.
	RunningBelow int
}

// Row is one visible line of the flattened tree.
type Row struct {
	ID          string
	Depth       int
	HasChildren bool
	Expanded    bool
	// Last is true when the row is the last child of its parent; Guides[i]
	// says whether the ancestor at depth i still has siblings below, for
	// drawing tree guides (│ ├ └).
	Last   bool
	Guides []bool
	// Match is true when the row matched the filter itself, false when it
	// is shown only as the ancestor of a match.
	Match bool
}
