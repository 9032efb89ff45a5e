// Package ops carries out the screen's intents on a live server: it is the
// client-backed implementation of ui.Ops, through the same actions code the
// subcommands run. It is the one place where the ui's requests meet the
// network; the ui itself imports neither client nor net/http.
package ops

import (
	"context"
	"errors"

	"github.com/octop-dev/octop/actions"
	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/intent"
)

// Server is ui.Ops over a *client.Client. Every method takes the context
// the screen's root made for the request, so esc can cancel it.
type Server struct{ c *client.Client }

// New returns the operations of the server c talks to.
func New(c *client.Client) *Server { return &Server{c: c} }

// Health asks the server for its version.
func (s *Server) Health(ctx context.Context) (wire.Health, error) { return s.c.Health(ctx) }

// Agents lists the server's agents.
func (s *Server) Agents(ctx context.Context) ([]wire.Agent, error) { return s.c.Agents(ctx) }

// Launch starts an async task (actions.Launch).
func (s *Server) Launch(ctx context.Context, r intent.LaunchRequested) (wire.Session, error) {
	ses, err := actions.Launch(ctx, s.c, actions.LaunchRequest{
		ParentID: r.Parent, Agent: r.Agent, Description: r.Description, Prompt: r.Prompt})
	return ses, kind(err)
}

// Resume prompts a finished task again and says which agent got it.
func (s *Server) Resume(ctx context.Context, id, prompt, agent string) (string, error) {
	r, err := actions.Resume(ctx, s.c, id, prompt, agent)
	return r.Agent, kind(err)
}

// Wait returns once session id has stopped running.
func (s *Server) Wait(ctx context.Context, id string) error {
	_, err := actions.Wait(ctx, s.c, id)
	return kind(err)
}

// Find looks a typed task_id up and says whether it runs.
func (s *Server) Find(ctx context.Context, id string) (wire.Session, bool, error) {
	f, err := actions.Find(ctx, s.c, id)
	return f.Session, f.Running(), kind(err)
}

// Abort stops one session, refusing with intent.ErrNotRunning if it no
// longer runs.
func (s *Server) Abort(ctx context.Context, id string) error {
	_, err := actions.Abort(ctx, s.c, id)
	return kind(err)
}

// AbortSessions stops exactly ids, in order, and says which it stopped.
func (s *Server) AbortSessions(ctx context.Context, ids []string) ([]string, error) {
	done, err := actions.AbortSessions(ctx, s.c, ids)
	return done, kind(err)
}

// Result reads a session's outcome.
func (s *Server) Result(ctx context.Context, id string) (intent.Result, error) {
	r, err := actions.Result(ctx, s.c, id)
	if err != nil {
		return intent.Result{}, kind(err)
	}
	return resultOf(r), nil
}

// resultOf is a task's result as the result room draws it.
func resultOf(r actions.TaskResult) intent.Result {
	out := intent.Result{TaskID: r.TaskID, Agent: r.Agent, State: r.State, Retry: r.Retry,
		Text: r.Text, ErrorLine: r.ErrorLine()}
	for _, t := range r.Tools {
		out.Tools = append(out.Tools, intent.ToolCall{Tool: t.Tool, Status: t.Status, Title: t.Title, Error: t.Error})
	}
	return out
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
	run := st[id].Type
	return msgs, run == wire.StatusBusy || run == wire.StatusRetry, nil
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

// ReplyPermission answers a permission request.
func (s *Server) ReplyPermission(ctx context.Context, id, reply string) error {
	return s.c.ReplyPermission(ctx, id, reply, "")
}

// ReplyQuestion answers a question request.
func (s *Server) ReplyQuestion(ctx context.Context, id string, answers [][]string) error {
	return s.c.ReplyQuestion(ctx, id, answers)
}

// RejectQuestion dismisses a question request.
func (s *Server) RejectQuestion(ctx context.Context, id string) error {
	return s.c.RejectQuestion(ctx, id)
}

// kindError gives an actions or client error the intent kind the rooms
// test for, keeping its text and its chain.
type kindError struct {
	err  error
	kind error
}

func (e kindError) Error() string        { return e.err.Error() }
func (e kindError) Unwrap() error        { return e.err }
func (e kindError) Is(target error) bool { return target == e.kind }

// kind maps err onto intent.ErrBusy, ErrNotRunning or ErrNoSession when it
// is one of those; other errors pass as they are.
func kind(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, actions.ErrBusy):
		return kindError{err, intent.ErrBusy}
	case errors.Is(err, actions.ErrNotRunning):
		return kindError{err, intent.ErrNotRunning}
	case errors.Is(err, actions.ErrNoSession), client.IsNotFound(err):
		return kindError{err, intent.ErrNoSession}
	}
	return err
}
