package live

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/sleep"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// DefaultPollInterval is how often Wait asks the server whether a task is
// done unless WaitOptions.Poll says otherwise.
const DefaultPollInterval = 300 * time.Millisecond

// settlePolls is how many more idle polls Wait needs before it trusts a
// result that could be mid-run (the session idles for an instant between
// steps).
const settlePolls = 3

// Result reads a session's outcome: running, complete with its last
// assistant text, or error with the error's name and message. A run that
// stopped a moment ago without a word on how is read again once its grace
// is over (model.Grace), so the outcome printed is how it ended.
func Result(ctx context.Context, c *client.Client, id string) (task.Result, error) {
	s, err := lookup(ctx, c, id)
	if err != nil {
		return task.Result{}, err
	}
	r, _, err := readSettled(ctx, c, s)
	return r, err
}

// readSettled is readAll, read again while a run in it is within its
// grace (a few times at most: each read may find a new stop).
func readSettled(ctx context.Context, c *client.Client, s wire.Session) (task.Result, []wire.MessageWithParts, error) {
	r, msgs, err := readAll(ctx, c, s, task.Clock{Now: nowMS()})
	for i := 0; err == nil && r.StopUntil != 0 && i < 3; i++ {
		if err = sleepUntil(ctx, r.StopUntil); err == nil {
			r, msgs, err = readAll(ctx, c, s, task.Clock{Now: nowMS(), Stops: r.Stops})
		}
	}
	return r, msgs, err
}

// readAll reads the messages before the status, at clk: a run that starts
// in between then shows as running, never as the old run's answer. The
// background tasks the session launched are read after both (see
// readFamily).
func readAll(ctx context.Context, c *client.Client, s wire.Session, clk task.Clock) (task.Result, []wire.MessageWithParts, error) {
	msgs, err := c.Messages(ctx, s.ID, 0)
	if err != nil {
		return task.Result{}, nil, err
	}
	all, err := c.Status(ctx)
	if err != nil {
		return task.Result{}, nil, err
	}
	r, err := derive(ctx, c, s, all, msgs, clk)
	return r, msgs, err
}

// nowMS is the time, Unix ms: what a reader tells the model (task.Clock).
func nowMS() int64 { return time.Now().UnixMilli() }

// sleepUntil waits until the time at (Unix ms), or ctx's end.
func sleepUntil(ctx context.Context, at int64) error {
	return sleep.For(ctx, time.Until(time.UnixMilli(at)))
}

// replied says the run a prompt started has begun answering: msgs hold a
// user message newer than after (the newest message before the prompt,
// "" for none), and an assistant message after it. Until then an idle
// status and the messages before say nothing of that run: the server may
// not have stored the prompt yet, or not started its run.
func replied(msgs []wire.MessageWithParts, after string) bool {
	prompt := ""
	for _, m := range msgs {
		switch id := m.Info.ID; {
		case id <= after:
		case m.Info.Role == "user" && prompt == "":
			prompt = id
		case m.Info.Role == "assistant" && prompt != "" && id > prompt:
			return true
		}
	}
	return false
}

// Wait blocks until the task stops running and returns its result. The
// deadline comes from ctx; when it passes, Wait returns the last result it
// read with an error saying the task still runs.
func Wait(ctx context.Context, c *client.Client, id string) (task.Result, error) {
	return WaitAfter(ctx, c, id, WaitOptions{})
}

// WaitOptions tunes WaitAfter. The zero value is Wait's.
type WaitOptions struct {
	// Prompted says a prompt was just sent to the session, and After is
	// the newest message it had before ("" for a new session): WaitAfter
	// then waits for the run that prompt started (its user message and a
	// reply after it), however slowly the server starts it, and never
	// returns an earlier run's end.
	Prompted bool
	After    string
	// Poll is how often the server is asked (DefaultPollInterval when zero).
	Poll time.Duration
}

// WaitAfter is Wait with options, for a prompt just sent (o.Prompted) or
// a different poll interval.
func WaitAfter(ctx context.Context, c *client.Client, id string, o WaitOptions) (task.Result, error) {
	s, err := lookup(ctx, c, id)
	if err != nil {
		return task.Result{}, err
	}
	if o.Poll <= 0 {
		o.Poll = DefaultPollInterval
	}
	var last task.Result
	unsettled := 0
	tick := time.NewTicker(o.Poll)
	defer tick.Stop()
	for {
		// The status map is cheap; read the messages only once the session
		// looks idle.
		st, err := statusOf(ctx, c, s.ID)
		if err == nil && running(st) {
			unsettled = 0
		} else if err == nil {
			var r task.Result
			var msgs []wire.MessageWithParts
			if r, msgs, err = readAll(ctx, c, s, task.Clock{Now: nowMS(), Stops: last.Stops}); err == nil {
				last = r
				switch {
				case r.State == model.StatusRunning || (o.Prompted && !replied(msgs, o.After)):
					unsettled = 0
				case r.Settled || unsettled >= settlePolls:
					return r, nil
				default:
					unsettled++
				}
			}
		}
		if err != nil && ctx.Err() == nil {
			return last, err
		}
		select {
		case <-ctx.Done():
			if last.TaskID == "" {
				last = task.Result{TaskID: s.ID, Title: s.Title, State: model.StatusRunning, Run: wire.StatusBusy}
			}
			msg := fmt.Sprintf("%s is still running; gave up waiting: %v", s.ID, ctx.Err())
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return last, task.NewError(task.ErrGaveUp, msg, ctx.Err())
			}
			return last, fmt.Errorf("%s is still running; gave up waiting: %w", s.ID, ctx.Err())
		case <-tick.C:
		}
	}
}
