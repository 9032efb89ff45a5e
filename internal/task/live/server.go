package live

import (
	"context"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
)

// Server is task.Server over a *client.Client: what the screen asks of a
// running server, through the same functions the subcommands run. Every
// method takes the context the screen's root made for the request, so esc
// can cancel it.
type Server struct{ c *client.Client }

// New returns the operations of the server c talks to.
func New(c *client.Client) *Server { return &Server{c: c} }

// Health asks the server for its version.
func (s *Server) Health(ctx context.Context) (wire.Health, error) { return s.c.Health(ctx) }

// Agents lists the server's agents.
func (s *Server) Agents(ctx context.Context) ([]wire.Agent, error) { return s.c.Agents(ctx) }

// Launch starts an async task (see Launch).
func (s *Server) Launch(ctx context.Context, r task.LaunchRequest) (wire.Session, error) {
	ses, err := Launch(ctx, s.c, r)
	return ses, kind(err)
}

// Resume prompts a finished task again and says which agent got it.
func (s *Server) Resume(ctx context.Context, id, prompt, agent string) (string, error) {
	r, err := Resume(ctx, s.c, id, prompt, agent)
	return r.Agent, kind(err)
}

// Wait returns once session id has stopped running.
func (s *Server) Wait(ctx context.Context, id string) error {
	_, err := Wait(ctx, s.c, id)
	return kind(err)
}

// Find looks a typed task_id up and says whether it runs.
func (s *Server) Find(ctx context.Context, id string) (wire.Session, bool, error) {
	f, err := Find(ctx, s.c, id)
	return f.Session, f.Running(), kind(err)
}

// Abort stops one session, refusing with task.ErrNotRunning if it no
// longer runs.
func (s *Server) Abort(ctx context.Context, id string) error {
	_, err := Abort(ctx, s.c, id)
	return kind(err)
}

// AbortSessions stops exactly ids, in order, and says which it stopped.
func (s *Server) AbortSessions(ctx context.Context, ids []string) ([]string, error) {
	done, err := AbortSessions(ctx, s.c, ids)
	return done, kind(err)
}

// Result reads a session's outcome.
func (s *Server) Result(ctx context.Context, id string) (task.Result, error) {
	r, err := Result(ctx, s.c, id)
	return r, kind(err)
}

// Messages reads a session's messages (the newest limit when limit > 0)
// and whether it runs (status read first: when it says idle, the messages
// hold the whole run).
func (s *Server) Messages(ctx context.Context, id string, limit int) ([]wire.MessageWithParts, bool, error) {
	st, err := s.c.Status(ctx)
	if err != nil {
		return nil, false, err
	}
	msgs, err := s.c.Messages(ctx, id, limit)
	if err != nil {
		return nil, false, kind(err)
	}
	return msgs, running(st[id]), nil
}

// History reads every message of session id, asking its own project
// directory dir when octop watches every project.
func (s *Server) History(ctx context.Context, id, dir string) ([]wire.MessageWithParts, error) {
	c := s.c
	if dir != "" && c.StreamPath() == "/global/event" {
		c = c.WithDirectory(dir)
	}
	msgs, err := c.Messages(ctx, id, 0)
	return msgs, kind(err)
}

// ReplyPermission answers a permission ask.
func (s *Server) ReplyPermission(ctx context.Context, id, reply string) error {
	return s.c.ReplyPermission(ctx, id, reply, "")
}

// ReplyQuestion answers a question ask.
func (s *Server) ReplyQuestion(ctx context.Context, id string, answers [][]string) error {
	return s.c.ReplyQuestion(ctx, id, answers)
}

// RejectQuestion dismisses a question ask.
func (s *Server) RejectQuestion(ctx context.Context, id string) error {
	return s.c.RejectQuestion(ctx, id)
}

// kind gives a client's 404 the kind task.ErrNoSession, keeping its text
// and its chain; the functions of this package already return task kinds.
func kind(err error) error {
	if err != nil && client.IsNotFound(err) {
		return task.NewError(task.ErrNoSession, err.Error(), err)
	}
	return err
}
