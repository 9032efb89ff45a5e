package live

import (
	"context"
	"fmt"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
)

// Server is task.Server over a *client.Client: what the screen asks of a
// running server, through the same functions the subcommands run. Every
// call takes the context the screen's root made for the request, so esc
// can cancel it.
type Server struct{ c *client.Client }

// New returns the operations of the server c talks to.
func New(c *client.Client) *Server { return &Server{c: c} }

// Health asks the server for its version.
func (s *Server) Health(ctx context.Context) (wire.Health, error) { return s.c.Health(ctx) }

// Do carries r out through this package's operations and answers with
// its reply.
func (s *Server) Do(ctx context.Context, r task.Request) task.Reply {
	switch r := r.(type) {
	case task.AgentsRequest:
		a, err := s.c.Agents(ctx)
		return task.AgentsReply{Agents: a, Err: err}
	case task.LaunchRequest:
		ses, err := Launch(ctx, s.c, r)
		return task.LaunchReply{Session: ses, Req: r, Err: kind(err)}
	case task.ResumeRequest:
		res, err := Resume(ctx, s.c, r.ID, r.Prompt, r.Agent)
		return task.ResumeReply{ID: r.ID, Agent: res.Agent, Err: kind(err)}
	case task.SayRequest:
		res, err := Say(ctx, s.c, r.ID, r.Text)
		return task.SayReply{ID: r.ID, Agent: res.Agent, Queued: res.Queued, Err: kind(err)}
	case task.RetrySourceRequest:
		req, err := RetrySource(ctx, s.c, r.ID)
		return task.RetrySourceReply{Req: req, Err: kind(err)}
	case task.WaitRequest:
		_, err := Wait(ctx, s.c, r.ID)
		return task.WaitReply{Err: kind(err)}
	case task.FindRequest:
		f, err := Find(ctx, s.c, r.ID)
		return task.FindReply{Session: f.Session, Running: f.Running(), Err: kind(err)}
	case task.AbortRequest:
		return s.abort(ctx, r)
	case task.UndoPlanRequest, task.UndoRequest, task.RedoPlanRequest, task.RedoRequest:
		return s.repair(ctx, r)
	}
	return s.read(ctx, r)
}

// read carries out the requests that only read, or answer an ask.
func (s *Server) read(ctx context.Context, r task.Request) task.Reply {
	switch r := r.(type) {
	case task.ResultRequest:
		res, err := Result(ctx, s.c, r.ID)
		return task.ResultReply{Result: res, Err: kind(err)}
	case task.MessagesRequest:
		return s.messages(ctx, r)
	case task.AnswerPermissionRequest:
		return task.AnswerReply{RequestID: r.RequestID, Done: r.Done, Failed: r.Failed,
			Err: s.c.ReplyPermission(ctx, r.RequestID, r.Reply, "")}
	case task.AnswerQuestionRequest:
		return task.AnswerReply{RequestID: r.RequestID, Done: r.Done, Failed: r.Failed,
			Err: s.c.ReplyQuestion(ctx, r.RequestID, r.Answers)}
	case task.RejectQuestionRequest:
		return task.AnswerReply{RequestID: r.RequestID, Done: r.Done, Failed: r.Failed,
			Err: s.c.RejectQuestion(ctx, r.RequestID)}
	}
	return r.Refused(fmt.Errorf("octop has no call for %T", r))
}

// abort stops one session (checked to still run) or exactly a subtree's.
func (s *Server) abort(ctx context.Context, r task.AbortRequest) task.Reply {
	if !r.Tree {
		if _, err := Abort(ctx, s.c, r.IDs[0]); err != nil {
			return task.AbortReply{Err: kind(err)}
		}
		return task.AbortReply{IDs: r.IDs[:1]}
	}
	ids, err := AbortSessions(ctx, s.c, r.IDs)
	return task.AbortReply{IDs: ids, Err: kind(err)}
}

// messages reads a session's messages (the newest r.Limit when set) and
// whether it runs (status read first: when it says idle, the messages
// hold the whole run).
func (s *Server) messages(ctx context.Context, r task.MessagesRequest) task.Reply {
	st, err := s.c.Status(ctx)
	if err != nil {
		return r.Refused(err)
	}
	msgs, err := s.c.Messages(ctx, r.ID, r.Limit)
	if err != nil {
		return r.Refused(kind(err))
	}
	return r.Answer(msgs, running(st[r.ID]))
}

// History reads every message of session id, asking its own project
// directory dir when octop watches every project.
func (s *Server) History(ctx context.Context, id, dir string) ([]wire.MessageWithParts, error) {
	if s.c.StreamPath() != "/global/event" {
		dir = ""
	}
	return messagesOf[wire.MessageWithParts](s.c)(ctx, task.HistoryRef{ID: id, Dir: dir})
}

// kind gives a client's 404 the kind task.ErrNoSession, keeping its text
// and its chain; the functions of this package already return task kinds.
func kind(err error) error {
	if err != nil && client.IsNotFound(err) {
		return task.NewError(task.ErrNoSession, err.Error(), err)
	}
	return err
}
