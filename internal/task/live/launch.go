package live

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/octop-dev/octop/internal/task"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Launch starts an async task: it creates a child session of req.Parent
// titled like a native task, with the todo and question tools denied, and
// the task tool too unless the agent's own permissions speak of it,
// and prompts it without waiting for the answer. It returns the new session,
// whose id is the task_id.
//
// Everything is checked first (the parent exists, the agent can run as a
// task, description and prompt are not empty), and nothing is created when a
// check fails. If the prompt fails after the session was made, Launch
// deletes that session and returns an task.ErrPromptFailed error saying so, never
// a session as if it had launched.
func Launch(ctx context.Context, c *client.Client, req task.LaunchRequest) (wire.Session, error) {
	req.Agent = strings.TrimSpace(req.Agent)
	req.Description = strings.Join(strings.Fields(req.Description), " ")
	switch {
	case req.Agent == "":
		return wire.Session{}, task.NewError(task.ErrInvalid, "no agent given", nil)
	case req.Description == "":
		return wire.Session{}, task.NewError(task.ErrInvalid, "the description is empty; give a few words saying what the task does", nil)
	case strings.TrimSpace(req.Prompt) == "":
		return wire.Session{}, task.NewError(task.ErrInvalid, "the prompt is empty", nil)
	case req.RetryOf != "" && !client.ValidSessionID(req.RetryOf):
		return wire.Session{}, task.NewError(task.ErrInvalid, fmt.Sprintf("%q is not a session id (they look like ses_…)", req.RetryOf), nil)
	}
	if req.Parent != "" {
		if _, err := lookup(ctx, c, req.Parent); err != nil {
			return wire.Session{}, err
		}
	}
	// A task under a parent runs a subagent, as the task tool would; a new
	// root may also run a primary agent (build, plan), titled without the
	// subagent badge it would not deserve.
	root := strings.TrimSpace(req.Parent) == ""
	agent, err := checkAgent(ctx, c, req.Agent, root)
	if err != nil {
		return wire.Session{}, err
	}
	desc := req.Description
	if req.RetryOf != "" {
		desc += model.RetryMark(req.RetryOf) // the link to the session it retries lives in the title
	}
	title, denied := TaskTitle(desc, req.Agent), TaskDeniedTools(agent)
	if root {
		denied = rootDeniedTools
		if agent.Mode == "primary" {
			title = desc
		}
	}

	s, err := c.CreateSession(ctx, client.CreateSessionRequest{
		ParentID:   strings.TrimSpace(req.Parent),
		Title:      title,
		Permission: denyRules(denied),
	})
	if err != nil {
		return wire.Session{}, fmt.Errorf("create the task session: %w", err)
	}
	err = c.PromptAsync(ctx, s.ID, client.PromptRequest{
		Agent: req.Agent,
		Parts: textParts(req.Prompt),
		Tools: disabledTools(denied),
	})
	if err == nil {
		return s, nil
	}
	// The caller's context may be what failed; the clean-up gets its own.
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if derr := c.DeleteSession(dctx, s.ID); derr != nil {
		return wire.Session{}, task.NewError(task.ErrPromptFailed, fmt.Sprintf(
			"the task was not started: %v; its session %s could not be deleted (%v) and is dead", err, s.ID, derr), err)
	}
	return wire.Session{}, task.NewError(task.ErrPromptFailed, fmt.Sprintf(
		"the task was not started: %v; its empty session %s was deleted", err, s.ID), err)
}
