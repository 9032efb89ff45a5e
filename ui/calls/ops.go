package calls

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/intent"
)

// Ops is every server operation the screen asks for: the root's reads
// (Snapshot, Health) and what the rooms' intents turn into. The root calls
// it only inside a tea.Cmd, with a context it can cancel. The ops package
// implements it over a client; tests use a fake.
type Ops interface {
	Snapshot(ctx context.Context) (model.Snapshot, error)
	Health(ctx context.Context) (wire.Health, error)
	Agents(ctx context.Context) ([]wire.Agent, error)
	Launch(ctx context.Context, r intent.LaunchRequested) (wire.Session, error)
	// Resume returns the agent the prompt went to.
	Resume(ctx context.Context, id, prompt, agent string) (string, error)
	Wait(ctx context.Context, id string) error
	// Find returns the session and whether it runs.
	Find(ctx context.Context, id string) (wire.Session, bool, error)
	Abort(ctx context.Context, id string) error
	AbortSessions(ctx context.Context, ids []string) ([]string, error)
	Result(ctx context.Context, id string) (intent.Result, error)
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
)

// timeout is how long the call carrying r may take.
func timeout(r intent.Request) time.Duration {
	if _, ok := r.(intent.WaitRequested); ok {
		return waitLimit
	}
	return RequestTimeout
}

// call turns an intent into the call that carries it out and the reply
// it hands back to the room.
func call(o Ops, r intent.Request) func(ctx context.Context) tea.Msg {
	switch r := r.(type) {
	case intent.AgentsRequested:
		return func(ctx context.Context) tea.Msg {
			a, err := o.Agents(ctx)
			return intent.AgentsLoaded{Agents: a, Err: err}
		}
	case intent.LaunchRequested:
		return func(ctx context.Context) tea.Msg {
			s, err := o.Launch(ctx, r)
			return intent.Launched{Session: s, Req: r, Err: err}
		}
	case intent.ResumeRequested:
		return func(ctx context.Context) tea.Msg {
			agent, err := o.Resume(ctx, r.ID, r.Prompt, r.Agent)
			return intent.Resumed{ID: r.ID, Agent: agent, Err: err}
		}
	case intent.WaitRequested:
		return func(ctx context.Context) tea.Msg { return intent.Waited{Err: o.Wait(ctx, r.ID)} }
	case intent.FindRequested:
		return func(ctx context.Context) tea.Msg {
			s, running, err := o.Find(ctx, r.ID)
			return intent.Found{Session: s, Running: running, Err: err}
		}
	case intent.AbortRequested:
		return func(ctx context.Context) tea.Msg { return abort(ctx, o, r) }
	}
	return read(o, r)
}

// read turns the intents that only read, or answer a waiting session,
// into their calls.
func read(o Ops, r intent.Request) func(ctx context.Context) tea.Msg {
	switch r := r.(type) {
	case intent.ResultRequested:
		return func(ctx context.Context) tea.Msg {
			res, err := o.Result(ctx, r.ID)
			return intent.ResultLoaded{Result: res, Err: err}
		}
	case intent.MessagesRequested:
		return func(ctx context.Context) tea.Msg {
			msgs, running, err := o.Messages(ctx, r.ID, r.Limit)
			partial := r.Limit > 0 && len(msgs) >= r.Limit
			return intent.MessagesLoaded{ID: r.ID, Msgs: msgs, Running: running, Partial: partial, Err: err}
		}
	case intent.AnswerPermission:
		return answer(r.RequestID, r.Done, r.Failed, func(ctx context.Context) error { return o.ReplyPermission(ctx, r.RequestID, r.Reply) })
	case intent.AnswerQuestion:
		return answer(r.RequestID, r.Done, r.Failed, func(ctx context.Context) error { return o.ReplyQuestion(ctx, r.RequestID, r.Answers) })
	case intent.RejectQuestion:
		return answer(r.RequestID, r.Done, r.Failed, func(ctx context.Context) error { return o.RejectQuestion(ctx, r.RequestID) })
	}
	return func(context.Context) tea.Msg { return nil }
}

// abort stops one session (checked to still run) or exactly a subtree's.
func abort(ctx context.Context, o Ops, r intent.AbortRequested) tea.Msg {
	if !r.Tree {
		if err := o.Abort(ctx, r.IDs[0]); err != nil {
			return intent.Aborted{Err: err}
		}
		return intent.Aborted{IDs: r.IDs[:1]}
	}
	ids, err := o.AbortSessions(ctx, r.IDs)
	return intent.Aborted{IDs: ids, Err: err}
}

func answer(id, done, failed string, f func(ctx context.Context) error) func(ctx context.Context) tea.Msg {
	return func(ctx context.Context) tea.Msg {
		return intent.Answered{RequestID: id, Done: done, Failed: failed, Err: f(ctx)}
	}
}

// SnapshotLoaded is the reply to Snapshot. Tag is the fetch's number: a
// reply older than the newest fetch is dropped.
type SnapshotLoaded struct {
	Tag  int
	Snap model.Snapshot
	Err  error
}

// HealthLoaded is the reply to Health, tagged like SnapshotLoaded.
type HealthLoaded struct {
	Tag    int
	Health wire.Health
	Err    error
}

// Snapshot reads the whole tree in a Cmd. It captures plain values only,
// so the Cmd can run on any goroutine while Update goes on.
func Snapshot(o Ops, tag int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), RequestTimeout)
		defer cancel()
		snap, err := o.Snapshot(ctx)
		return SnapshotLoaded{Tag: tag, Snap: snap, Err: err}
	}
}

// Health asks the server for its version in a Cmd.
func Health(o Ops, tag int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		h, err := o.Health(ctx)
		return HealthLoaded{Tag: tag, Health: h, Err: err}
	}
}
