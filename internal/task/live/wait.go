package live

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/octop-dev/octop/internal/task"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/wire"
)

// DefaultPollInterval is how often Wait asks the server whether a task is
// done unless WaitOptions.Poll says otherwise.
const DefaultPollInterval = 300 * time.Millisecond

// settlePolls is how many more idle polls Wait needs before it trusts a
// result that could be mid-run (the session idles for an instant between
// steps).
const settlePolls = 3

// Result reads a session's outcome: running, complete with its last
// assistant text, or error with the error's name and message.
func Result(ctx context.Context, c *client.Client, id string) (task.Result, error) {
	s, err := lookup(ctx, c, id)
	if err != nil {
		return task.Result{}, err
	}
	return read(ctx, c, s)
}

// read reads the messages before the status: a run that starts in between
// then shows as running, never as the old run's answer. The background
// tasks the session launched are read after both (see readFamily).
func read(ctx context.Context, c *client.Client, s wire.Session) (task.Result, error) {
	msgs, err := c.Messages(ctx, s.ID, 0)
	if err != nil {
		return task.Result{}, err
	}
	all, err := c.Status(ctx)
	if err != nil {
		return task.Result{}, err
	}
	return derive(ctx, c, s, all, msgs)
}

// Wait blocks until the task stops running and returns its result. The
// deadline comes from ctx; when it passes, Wait returns the last result it
// read with an error saying the task still runs.
func Wait(ctx context.Context, c *client.Client, id string) (task.Result, error) {
	return WaitAfter(ctx, c, id, WaitOptions{})
}

// WaitOptions tunes WaitAfter. The zero value is Wait's.
type WaitOptions struct {
	// Before is how many messages the session had before a prompt was just
	// sent to it: WaitAfter then also waits for that prompt to land, so the
	// answer it returns is the new one, not the previous run's.
	Before int
	// Poll is how often the server is asked (DefaultPollInterval when zero).
	Poll time.Duration
}

// WaitAfter is Wait with options, for a prompt just sent (o.Before) or a
// different poll interval.
func WaitAfter(ctx context.Context, c *client.Client, id string, o WaitOptions) (task.Result, error) {
	s, err := lookup(ctx, c, id)
	if err != nil {
		return task.Result{}, err
	}
	if o.Poll <= 0 {
		o.Poll = DefaultPollInterval
	}
	before := o.Before
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
			if r, err = read(ctx, c, s); err == nil {
				last = r
				switch {
				case r.State == task.StateRunning || r.Messages <= before:
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
				last = task.Result{TaskID: s.ID, Title: s.Title, State: task.StateRunning, Run: wire.StatusBusy}
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
