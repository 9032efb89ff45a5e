package task

import "github.com/octop-dev/octop/internal/wire"

// Request is what a room or a subcommand asks the server to do. The
// screen's root hands it to its Server's Do, in a tea.Cmd with a context
// it can cancel, and the Reply back to the room that asked.
type Request interface {
	// Changes says carrying the request out changes the server (a
	// launch, a resume, an abort, an answer): a read-only server refuses
	// it and sends nothing.
	Changes() bool
	// Refused is the request's reply when it is not carried out, err
	// saying why.
	Refused(err error) Reply
}

// Reply answers a Request; each carries the call's error.
type Reply interface{ reply() }

// Detached says a request outlives the dialog that made it: closing the
// dialog does not cancel it, and its reply is shown as a notice (an
// answer given in the inbox is not taken back by closing the inbox).
type Detached interface{ Detached() bool }

// AgentsRequest asks for the server's agents (the launch form's picker).
type AgentsRequest struct{}

// LaunchRequest starts an async task: a new child of Parent ("" for a new
// root) running Agent on Prompt, titled by Description. RetryOf, when set,
// is the session the task retries: its title says so (model.RetryMark).
type LaunchRequest struct {
	Parent, Agent, Description, Prompt string
	RetryOf                            string
}

// ResumeRequest sends Prompt to the finished session ID, as Agent (""
// for the session's own).
type ResumeRequest struct{ ID, Prompt, Agent string }

// WaitRequest waits until session ID stops running.
type WaitRequest struct{ ID string }

// FindRequest looks a typed task_id up.
type FindRequest struct{ ID string }

// AbortRequest stops sessions. With Tree unset it stops IDs[0] (and, on
// the server, its running children), refusing if it no longer runs; with
// Tree set it stops exactly IDs, in order.
type AbortRequest struct {
	IDs  []string
	Tree bool
}

// ResultRequest reads session ID's outcome.
type ResultRequest struct{ ID string }

// MessagesRequest reads session ID's messages (the transcript and
// files-changed rooms): all of them, or with Limit the newest Limit, so a
// long session shows its end while the rest loads.
type MessagesRequest struct {
	ID    string
	Limit int
}

// Answer is r's reply carrying msgs and whether the session ran when they
// were read: Partial when r's Limit may have left older ones out.
func (r MessagesRequest) Answer(msgs []wire.MessageWithParts, running bool) MessagesReply {
	return MessagesReply{ID: r.ID, Msgs: msgs, Running: running, Partial: r.Limit > 0 && len(msgs) >= r.Limit}
}

// HistoriesRequest reads every message of each session of IDs (the $
// ledger room, for a subtree): Dirs[i] is the project directory IDs[i]
// lives in ("" for the screen's own).
type HistoriesRequest struct {
	IDs, Dirs []string
}

// Changes: reading histories changes nothing.
func (HistoriesRequest) Changes() bool { return false }

// Refused is a HistoriesReply carrying err.
func (HistoriesRequest) Refused(err error) Reply { return HistoriesReply{Err: err} }

// AnswerPermissionRequest replies to a permission ask with ReplyOnce,
// ReplyAlways or ReplyReject. Done and Failed are the notices for each
// outcome.
type AnswerPermissionRequest struct {
	RequestID, Reply string
	Done, Failed     string
}

// AnswerQuestionRequest answers every question of an ask, one list of
// picked labels per question.
type AnswerQuestionRequest struct {
	RequestID    string
	Answers      [][]string
	Done, Failed string
}

// RejectQuestionRequest dismisses a question ask.
type RejectQuestionRequest struct {
	RequestID    string
	Done, Failed string
}

// The permission replies.
const (
	ReplyOnce   = "once"
	ReplyAlways = "always"
	ReplyReject = "reject"
)

// Changes: a launch, a resume, an abort and an answer change the server;
// the rest only read.
func (AgentsRequest) Changes() bool           { return false }
func (LaunchRequest) Changes() bool           { return true }
func (ResumeRequest) Changes() bool           { return true }
func (WaitRequest) Changes() bool             { return false }
func (FindRequest) Changes() bool             { return false }
func (AbortRequest) Changes() bool            { return true }
func (ResultRequest) Changes() bool           { return false }
func (MessagesRequest) Changes() bool         { return false }
func (AnswerPermissionRequest) Changes() bool { return true }
func (AnswerQuestionRequest) Changes() bool   { return true }
func (RejectQuestionRequest) Changes() bool   { return true }

// Refused: each request's reply carrying err, and what the room that
// asked needs to place it.
func (AgentsRequest) Refused(err error) Reply     { return AgentsReply{Err: err} }
func (r LaunchRequest) Refused(err error) Reply   { return LaunchReply{Req: r, Err: err} }
func (r ResumeRequest) Refused(err error) Reply   { return ResumeReply{ID: r.ID, Err: err} }
func (WaitRequest) Refused(err error) Reply       { return WaitReply{Err: err} }
func (FindRequest) Refused(err error) Reply       { return FindReply{Err: err} }
func (AbortRequest) Refused(err error) Reply      { return AbortReply{Err: err} }
func (ResultRequest) Refused(err error) Reply     { return ResultReply{Err: err} }
func (r MessagesRequest) Refused(err error) Reply { return MessagesReply{ID: r.ID, Err: err} }
func (r AnswerPermissionRequest) Refused(err error) Reply {
	return answerRefused(r.RequestID, r.Done, r.Failed, err)
}
func (r AnswerQuestionRequest) Refused(err error) Reply {
	return answerRefused(r.RequestID, r.Done, r.Failed, err)
}
func (r RejectQuestionRequest) Refused(err error) Reply {
	return answerRefused(r.RequestID, r.Done, r.Failed, err)
}

func answerRefused(id, done, failed string, err error) Reply {
	return AnswerReply{RequestID: id, Done: done, Failed: failed, Err: err}
}

// Detached: the inbox's answers stand once given.
func (AnswerPermissionRequest) Detached() bool { return true }
func (AnswerQuestionRequest) Detached() bool   { return true }
func (RejectQuestionRequest) Detached() bool   { return true }

// AgentsReply answers AgentsRequest.
type AgentsReply struct {
	Agents []wire.Agent
	Err    error
}

// LaunchReply answers LaunchRequest.
type LaunchReply struct {
	Session wire.Session
	Req     LaunchRequest
	Err     error
}

// ResumeReply answers ResumeRequest: Agent is the agent the prompt went to.
type ResumeReply struct {
	ID, Agent string
	Err       error
}

// WaitReply answers WaitRequest.
type WaitReply struct{ Err error }

// FindReply answers FindRequest.
type FindReply struct {
	Session wire.Session
	Running bool
	Err     error
}

// AbortReply answers AbortRequest: IDs are the sessions stopped, also when
// Err says a later one failed.
type AbortReply struct {
	IDs []string
	Err error
}

// ResultReply answers ResultRequest.
type ResultReply struct {
	Result Result
	Err    error
}

// MessagesReply answers MessagesRequest. Running says the session was
// still running when they were read; Partial that a Limit cut them (there
// may be older ones).
type MessagesReply struct {
	ID      string
	Msgs    []wire.MessageWithParts
	Running bool
	Partial bool
	Err     error
}

// HistoriesReply answers HistoriesRequest: the messages by session id.
// A session deleted meanwhile is left out.
type HistoriesReply struct {
	Msgs map[string][]wire.MessageWithParts
	Err  error
}

func (HistoriesReply) reply() {}

// AnswerReply answers the three answering requests.
type AnswerReply struct {
	RequestID    string
	Done, Failed string
	Err          error
}

// Notice is the line an answer leaves in the footer, whatever became of
// the inbox meanwhile, and whether it is an error.
func (a AnswerReply) Notice() (string, bool) {
	if a.Err != nil {
		return a.Failed + ": " + a.Err.Error(), true
	}
	return a.Done, false
}

func (AgentsReply) reply()   {}
func (LaunchReply) reply()   {}
func (ResumeReply) reply()   {}
func (WaitReply) reply()     {}
func (FindReply) reply()     {}
func (AbortReply) reply()    {}
func (ResultReply) reply()   {}
func (MessagesReply) reply() {}
func (AnswerReply) reply()   {}
