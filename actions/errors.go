package actions

import "errors"

// Kinds of failure a caller (the TUI, a subcommand) treats differently. Test
// for them with errors.Is; the error's text is the one line to show.
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
)

// kindError is an error with one of the kinds above and a message that
// stands on its own.
type kindError struct {
	kind  error
	msg   string
	cause error
}

func (e *kindError) Error() string        { return e.msg }
func (e *kindError) Is(target error) bool { return target == e.kind }
func (e *kindError) Unwrap() error        { return e.cause }

func newError(kind error, msg string, cause error) error {
	return &kindError{kind: kind, msg: msg, cause: cause}
}
