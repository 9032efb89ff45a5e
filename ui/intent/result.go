package intent

import (
	"errors"
	"strings"

	"github.com/octop-dev/octop/internal/wire"
)

// Task states, in async-task-result terms.
const (
	StateRunning  = "running"
	StateComplete = "complete"
	StateError    = "error"
)

// Result is a session's outcome as an async task's caller sees it: what
// the result room draws.
type Result struct {
	TaskID string
	Agent  string
	// State is StateRunning, StateComplete or StateError.
	State string
	// Retry says why and when a retrying session tries again.
	Retry *wire.SessionStatus
	// Text is the last assistant text.
	Text string
	// ErrorLine is the error a failed run ended with, as one line.
	ErrorLine string
	// Tools are the tool calls of the current (or last) run, in order.
	Tools []ToolCall
}

// ToolCall is one tool call of a run.
type ToolCall struct {
	Tool, Status, Title, Error string
}

// Errors an Ops implementation wraps so rooms can tell them apart with
// errors.Is; the error's own text is the line to show.
var (
	// ErrBusy: the session runs again, so a prompt now would race it.
	ErrBusy = errors.New("session is busy")
	// ErrNotRunning: there is nothing to abort.
	ErrNotRunning = errors.New("nothing to abort")
	// ErrNoSession: the server has no session with that id.
	ErrNoSession = errors.New("no such session")
	// ErrReadOnly: a replay or the demo has no server to change; the
	// error shown names which ("demo: read-only").
	ErrReadOnly = errors.New("read-only")
)

// OneLine is an error's text as one line for a dialog or a notice.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
