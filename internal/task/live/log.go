package live

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/octop-dev/octop/internal/task"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/transcript"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Log reads a session's transcript as it is now, with the calls' outcomes
// as the session's state has them (a run stopped a moment ago without a
// word on how is read again once its grace is over, as Result does). A
// prompt is marked queued only while the session runs.
func Log(ctx context.Context, c *client.Client, id string) ([]transcript.Entry, error) {
	s, err := lookup(ctx, c, id)
	if err != nil {
		return nil, err
	}
	r, msgs, err := readSettled(ctx, c, s)
	if err != nil {
		return nil, err
	}
	entries := transcript.Build(msgs)
	if r.State != model.StatusRunning {
		entries = transcript.Stopped(entries, r.Kind == model.KindAborted)
	}
	return entries, nil
}

// FollowLog hands emit each entry of a session's transcript once it is
// Settled (a call when it ends, a text when it is whole), in order, until
// the session stops running, and returns how it ended. Like Wait, it trusts
// an idle session only once its messages say the run is over (or after a
// few polls that agree), since a session idles for an instant between steps.
func FollowLog(ctx context.Context, c *client.Client, id string, emit func([]transcript.Entry) error) (task.Result, error) {
	s, err := lookup(ctx, c, id)
	if err != nil {
		return task.Result{}, err
	}
	var f transcript.Follower
	var last task.Result // the previous read, for its Stops
	unsettled := 0
	tick := time.NewTicker(DefaultPollInterval)
	defer tick.Stop()
	for {
		// The status before the messages: when it says idle, the messages
		// read after it hold the whole run.
		all, err := c.Status(ctx)
		var msgs []wire.MessageWithParts
		if err == nil {
			msgs, err = c.Messages(ctx, s.ID, 0)
		}
		var r task.Result
		if err == nil {
			r, err = derive(ctx, c, s, all, msgs, task.Clock{Now: nowMS(), Stops: last.Stops})
			last = r
		}
		if err != nil {
			if ctx.Err() != nil {
				return task.Result{}, stoppedFollowing(ctx, s.ID)
			}
			return task.Result{}, err
		}
		done := r.State != model.StatusRunning && (r.Settled || unsettled >= settlePolls)
		if r.State != model.StatusRunning {
			unsettled++
		} else {
			unsettled = 0
		}
		entries := transcript.Build(msgs)
		if done {
			entries = transcript.Stopped(entries, r.Kind == model.KindAborted)
		}
		if err := emit(f.Next(entries, done)); err != nil {
			return r, err
		}
		if done {
			return r, nil
		}
		select {
		case <-ctx.Done():
			return r, stoppedFollowing(ctx, s.ID)
		case <-tick.C:
		}
	}
}

// stoppedFollowing says why FollowLog stopped before the session did: a
// deadline (--timeout) is task.ErrGaveUp, as for Wait, so both exit alike.
func stoppedFollowing(ctx context.Context, id string) error {
	msg := fmt.Sprintf("%s is still running; stopped following it: %v", id, ctx.Err())
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return task.NewError(task.ErrGaveUp, msg, ctx.Err())
	}
	return fmt.Errorf("%s is still running; stopped following it: %w", id, ctx.Err())
}
