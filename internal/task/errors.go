package task

import "errors"

// Kinds of failure a caller (a room, a subcommand) treats differently.
// Test for them with errors.Is; the error's own text is the one line to
// show.
var (
	// ErrInvalid is bad input caught before anything was sent: an empty
	// prompt, a malformed id, an agent that cannot run as a task.
	ErrInvalid = errors.New("invalid request")
	// ErrNoSession means the server has no session with that id.
	ErrNoSession = errors.New("no such session")
	// ErrBusy means the session is still running, so a new prompt now would
	// race the one in flight.
	ErrBusy = errors.New("session is busy")
	// ErrNotRunning means there is nothing to abort: the session (or every
	// session of the subtree) is idle.
	ErrNotRunning = errors.New("nothing to abort")
	// ErrPromptFailed means a session was created but could not be started.
	// The error's text says whether the dead session was deleted.
	ErrPromptFailed = errors.New("prompt failed")
	// ErrGaveUp means a wait reached its deadline while the task still ran.
	ErrGaveUp = errors.New("gave up waiting")
	// ErrOthersWork means an undo or a redo would also undo the work of
	// sessions the person did not agree to lose; nothing was changed.
	// The error's text names them.
	ErrOthersWork = errors.New("other sessions' work at stake")
	// ErrNotReverted means there is nothing to redo: the session has no
	// undone messages (or its next prompt made the undo final).
	ErrNotReverted = errors.New("nothing to redo")
	// ErrReadOnly means there is no server to change: a replay, the demo,
	// or --read-only. The error's text names which ("demo: read-only").
	ErrReadOnly = errors.New("read-only")
)

// Error is an error of one of the kinds above with a message that stands
// on its own, and the error that caused it (kept for errors.As).
type Error struct {
	Kind  error
	Msg   string
	Cause error
}

// NewError returns an error of kind with msg as its text.
func NewError(kind error, msg string, cause error) error {
	return &Error{Kind: kind, Msg: msg, Cause: cause}
}

func (e *Error) Error() string        { return e.Msg }
func (e *Error) Is(target error) bool { return target == e.Kind }
func (e *Error) Unwrap() error        { return e.Cause }
