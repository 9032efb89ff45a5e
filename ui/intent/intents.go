package intent

import "github.com/octop-dev/octop/internal/wire"

// Request is an intent: what a room asks the server to do. The root turns
// it into a call through its Ops, in a tea.Cmd with a context it can
// cancel, and hands the reply back to the room that asked.
type Request interface{ request() }

// Detached says a request outlives the dialog that made it: closing the
// dialog does not cancel it, and its reply is shown as a notice (an
// answer given in the inbox is not taken back by closing the inbox).
type Detached interface{ Detached() bool }

// AgentsRequested asks for the server's agents (the launch form's picker).
type AgentsRequested struct{}

// LaunchRequested starts a task: a new child of Parent ("" for a new
// root) running Agent on Prompt, titled by Description.
type LaunchRequested struct {
	Parent, Agent, Description, Prompt string
}

// ResumeRequested sends Prompt to the finished session ID, as Agent (""
// for the session's own).
type ResumeRequested struct{ ID, Prompt, Agent string }

// WaitRequested waits until session ID stops running.
type WaitRequested struct{ ID string }

// FindRequested looks a typed task_id up.
type FindRequested struct{ ID string }

// AbortRequested stops sessions. With Tree unset it stops IDs[0] (and, on
// the server, its running children), refusing if it no longer runs; with
// Tree set it stops exactly IDs, in order.
type AbortRequested struct {
	IDs  []string
	Tree bool
}

// ResultRequested reads session ID's outcome.
type ResultRequested struct{ ID string }

// AnswerPermission replies to a permission request with ReplyOnce,
// ReplyAlways or ReplyReject. Done and Failed are the notices for each
// outcome.
type AnswerPermission struct {
	RequestID, Reply string
	Done, Failed     string
}

// AnswerQuestion answers every question of a request, one list of picked
// labels per question.
type AnswerQuestion struct {
	RequestID    string
	Answers      [][]string
	Done, Failed string
}

// RejectQuestion dismisses a question request.
type RejectQuestion struct {
	RequestID    string
	Done, Failed string
}

// The permission replies.
const (
	ReplyOnce   = "once"
	ReplyAlways = "always"
	ReplyReject = "reject"
)

func (AgentsRequested) request()  {}
func (LaunchRequested) request()  {}
func (ResumeRequested) request()  {}
func (WaitRequested) request()    {}
func (FindRequested) request()    {}
func (AbortRequested) request()   {}
func (ResultRequested) request()  {}
func (AnswerPermission) request() {}
func (AnswerQuestion) request()   {}
func (RejectQuestion) request()   {}

// Detached: the inbox's answers stand once given.
func (AnswerPermission) Detached() bool { return true }
func (AnswerQuestion) Detached() bool   { return true }
func (RejectQuestion) Detached() bool   { return true }

// The replies, one per request, each with the call's error.

// AgentsLoaded answers AgentsRequested.
type AgentsLoaded struct {
	Agents []wire.Agent
	Err    error
}

// Launched answers LaunchRequested.
type Launched struct {
	Session wire.Session
	Req     LaunchRequested
	Err     error
}

// Resumed answers ResumeRequested: Agent is the agent the prompt went to.
type Resumed struct {
	ID, Agent string
	Err       error
}

// Waited answers WaitRequested.
type Waited struct{ Err error }

// Found answers FindRequested.
type Found struct {
	Session wire.Session
	Running bool
	Err     error
}

// Aborted answers AbortRequested: IDs are the sessions stopped, also when
// Err says a later one failed.
type Aborted struct {
	IDs []string
	Err error
}

// ResultLoaded answers ResultRequested.
type ResultLoaded struct {
	Result Result
	Err    error
}

// Answered answers the inbox's three requests.
type Answered struct {
	RequestID    string
	Done, Failed string
	Err          error
}

// Flash is the notice an answer leaves in the footer, whatever became of
// the inbox meanwhile.
func (a Answered) Flash() FlashMsg {
	if a.Err != nil {
		return FlashMsg{Text: a.Failed + ": " + OneLine(a.Err.Error()), Error: true}
	}
	return FlashMsg{Text: a.Done}
}
