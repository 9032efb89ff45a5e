package live

import (
	"context"
	"fmt"

	"github.com/octop-dev/octop/internal/task"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/wire"
)

// Abort stops one running session. The server answers "true" to an abort of
// any id, even one that does not exist, so Abort checks the id first: it
// fails with task.ErrInvalid for a malformed id, task.ErrNoSession for an unknown one,
// and task.ErrNotRunning when the session is idle, sending nothing in each case.
// On 1.18 the server also stops the session's running children.
func Abort(ctx context.Context, c *client.Client, id string) (wire.Session, error) {
	s, err := lookup(ctx, c, id)
	if err != nil {
		return wire.Session{}, err
	}
	st, err := statusOf(ctx, c, s.ID)
	if err != nil {
		return wire.Session{}, err
	}
	if !running(st) {
		return wire.Session{}, task.NewError(task.ErrNotRunning, fmt.Sprintf("%s is idle; nothing to abort", s.ID), nil)
	}
	if err := c.Abort(ctx, s.ID); err != nil {
		return wire.Session{}, fmt.Errorf("abort %s: %w", s.ID, err)
	}
	return s, nil
}

// AbortTree stops every running session of the subtree rooted at id: busy
// descendants deepest first, then the session itself (see AbortOrder).
// Nothing outside the subtree is touched. It returns the sessions it
// aborted, in order; with nothing running it fails with task.ErrNotRunning. If one
// abort fails it stops there and returns those already aborted with the
// error.
func AbortTree(ctx context.Context, c *client.Client, id string) ([]wire.Session, error) {
	root, err := lookup(ctx, c, id)
	if err != nil {
		return nil, err
	}
	plan, err := PlanAbortTree(ctx, c, root)
	if err != nil {
		return nil, err
	}
	if len(plan) == 0 {
		return nil, task.NewError(task.ErrNotRunning, fmt.Sprintf("nothing runs in the subtree of %s; nothing to abort", root.ID), nil)
	}
	var done []wire.Session
	for _, s := range plan {
		if err := c.Abort(ctx, s.ID); err != nil {
			return done, fmt.Errorf("abort %s: %w", s.ID, err)
		}
		done = append(done, s)
	}
	return done, nil
}

// PlanAbortTree reads the server's sessions and statuses and returns what
// AbortTree on root would stop, without stopping anything: the TUI's
// confirmation names exactly these.
func PlanAbortTree(ctx context.Context, c *client.Client, root wire.Session) ([]wire.Session, error) {
	sessions, err := c.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	status, err := c.Status(ctx)
	if err != nil {
		return nil, err
	}
	known := false
	for _, s := range sessions {
		if s.ID == root.ID {
			known = true
			break
		}
	}
	if !known {
		sessions = append(sessions, root)
	}
	return AbortOrder(sessions, status, root.ID), nil
}

// AbortSessions aborts exactly the sessions named, in order: the list a
// confirmation showed (see AbortOrder), so what the person agreed to is
// what happens. It returns the ids it aborted; on an error it stops there.
func AbortSessions(ctx context.Context, c *client.Client, ids []string) ([]string, error) {
	for _, id := range ids {
		if !client.ValidSessionID(id) {
			return nil, task.NewError(task.ErrInvalid, fmt.Sprintf("%q is not a session id (they look like ses_…)", id), nil)
		}
	}
	var done []string
	for _, id := range ids {
		if err := c.Abort(ctx, id); err != nil {
			return done, fmt.Errorf("abort %s: %w", id, err)
		}
		done = append(done, id)
	}
	return done, nil
}
