package task

import (
	"context"
	"errors"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Server is every operation the screen asks of a server: the root's reads
// (Snapshot, Health) and what the rooms' requests turn into. The screen
// calls it only inside a tea.Cmd, with a context it can cancel. Package
// live implements it over a running server, package record over a
// recording; tests use a fake.
type Server interface {
	Snapshot(ctx context.Context) (model.Snapshot, error)
	Health(ctx context.Context) (wire.Health, error)
	Agents(ctx context.Context) ([]wire.Agent, error)
	Launch(ctx context.Context, r LaunchRequest) (wire.Session, error)
	// Resume returns the agent the prompt went to.
	Resume(ctx context.Context, id, prompt, agent string) (string, error)
	Wait(ctx context.Context, id string) error
	// Find returns the session and whether it runs.
	Find(ctx context.Context, id string) (wire.Session, bool, error)
	Abort(ctx context.Context, id string) error
	AbortSessions(ctx context.Context, ids []string) ([]string, error)
	Result(ctx context.Context, id string) (Result, error)
	ReplyPermission(ctx context.Context, id, reply string) error
	ReplyQuestion(ctx context.Context, id string, answers [][]string) error
	RejectQuestion(ctx context.Context, id string) error
	// Messages reads a session's messages (the newest limit of them when
	// limit > 0), and whether it runs.
	Messages(ctx context.Context, id string, limit int) ([]wire.MessageWithParts, bool, error)
	// History reads every message of session id, which lives in project
	// directory dir ("" for the screen's own).
	History(ctx context.Context, id, dir string) ([]wire.MessageWithParts, error)
}

const (
	// RequestTimeout bounds one request (a launch makes four calls).
	RequestTimeout = 30 * time.Second
	// waitLimit bounds waiting for a busy session before a resume; esc
	// stops it sooner.
	waitLimit = 2 * time.Hour
	// historiesTimeout bounds reading a subtree's messages, a few at a
	// time.
	historiesTimeout = 2 * time.Minute
	// historiesParallel is how many message lists are read at once.
	historiesParallel = 4
)

// Timeout is how long the call carrying r may take.
func Timeout(r Request) time.Duration {
	switch r.(type) {
	case WaitRequest:
		return waitLimit
	case HistoriesRequest:
		return historiesTimeout
	}
	return RequestTimeout
}

// Do carries r out on s and returns its reply (nil for a request s has
// no call for).
func Do(ctx context.Context, s Server, r Request) Reply {
	switch r := r.(type) {
	case AgentsRequest:
		a, err := s.Agents(ctx)
		return AgentsReply{Agents: a, Err: err}
	case LaunchRequest:
		ses, err := s.Launch(ctx, r)
		return LaunchReply{Session: ses, Req: r, Err: err}
	case ResumeRequest:
		agent, err := s.Resume(ctx, r.ID, r.Prompt, r.Agent)
		return ResumeReply{ID: r.ID, Agent: agent, Err: err}
	case WaitRequest:
		return WaitReply{Err: s.Wait(ctx, r.ID)}
	case FindRequest:
		ses, running, err := s.Find(ctx, r.ID)
		return FindReply{Session: ses, Running: running, Err: err}
	case AbortRequest:
		return abort(ctx, s, r)
	}
	return read(ctx, s, r)
}

// read carries out the requests that only read, or answer an ask.
func read(ctx context.Context, s Server, r Request) Reply {
	switch r := r.(type) {
	case ResultRequest:
		res, err := s.Result(ctx, r.ID)
		return ResultReply{Result: res, Err: err}
	case MessagesRequest:
		msgs, running, err := s.Messages(ctx, r.ID, r.Limit)
		partial := r.Limit > 0 && len(msgs) >= r.Limit
		return MessagesReply{ID: r.ID, Msgs: msgs, Running: running, Partial: partial, Err: err}
	case HistoriesRequest:
		return histories(ctx, s, r)
	case AnswerPermissionRequest:
		return AnswerReply{RequestID: r.RequestID, Done: r.Done, Failed: r.Failed,
			Err: s.ReplyPermission(ctx, r.RequestID, r.Reply)}
	case AnswerQuestionRequest:
		return AnswerReply{RequestID: r.RequestID, Done: r.Done, Failed: r.Failed,
			Err: s.ReplyQuestion(ctx, r.RequestID, r.Answers)}
	case RejectQuestionRequest:
		return AnswerReply{RequestID: r.RequestID, Done: r.Done, Failed: r.Failed,
			Err: s.RejectQuestion(ctx, r.RequestID)}
	}
	return nil
}

// abort stops one session (checked to still run) or exactly a subtree's.
func abort(ctx context.Context, s Server, r AbortRequest) Reply {
	if !r.Tree {
		if err := s.Abort(ctx, r.IDs[0]); err != nil {
			return AbortReply{Err: err}
		}
		return AbortReply{IDs: r.IDs[:1]}
	}
	ids, err := s.AbortSessions(ctx, r.IDs)
	return AbortReply{IDs: ids, Err: err}
}

// histories reads each session's messages, a few at a time; a session
// gone from the server is left out, any other error fails the reply.
func histories(ctx context.Context, s Server, r HistoriesRequest) Reply {
	out := make(map[string][]wire.MessageWithParts, len(r.IDs))
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(historiesParallel)
	for i, id := range r.IDs {
		dir := ""
		if i < len(r.Dirs) {
			dir = r.Dirs[i]
		}
		g.Go(func() error {
			msgs, err := s.History(gctx, id, dir)
			if errors.Is(err, ErrNoSession) {
				return nil
			}
			if err != nil {
				return err
			}
			mu.Lock()
			out[id] = msgs
			mu.Unlock()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return HistoriesReply{Err: err}
	}
	return HistoriesReply{Msgs: out}
}
