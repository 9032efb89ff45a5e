package live

import (
	"context"
	"fmt"
	"strings"

	"github.com/octop-dev/octop/internal/task"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/wire"
)

// Resumed is a task that Resume prompted again.
type Resumed struct {
	Session wire.Session
	// Agent is the agent the prompt went to.
	Agent string
	// After is the newest message of the session before the prompt ("" for
	// none): WaitAfter waits for a user message newer than it, the prompt,
	// and the reply after that, so it never takes the old run's answer.
	After string
}

// Resume continues a task with its history: it sends prompt to the same
// session, the way passing a prior task_id to the task tool does. agent
// empty means the session's own agent.
//
// It refuses with task.ErrBusy while the session runs (two prompts at once would
// race), with task.ErrNoSession for an unknown id and task.ErrInvalid for a malformed
// id, an empty prompt or an unknown agent (a child needs a subagent; a root
// may also run a primary agent); in each case nothing is sent.
func Resume(ctx context.Context, c *client.Client, id, prompt, agent string) (Resumed, error) {
	if strings.TrimSpace(prompt) == "" {
		return Resumed{}, task.NewError(task.ErrInvalid, "the prompt is empty", nil)
	}
	s, err := lookup(ctx, c, id)
	if err != nil {
		return Resumed{}, err
	}
	st, err := statusOf(ctx, c, s.ID)
	if err != nil {
		return Resumed{}, err
	}
	if running(st) {
		return Resumed{}, task.NewError(task.ErrBusy, fmt.Sprintf(
			"%s is still running; wait for it (octop result --wait %s) or abort it first", s.ID, s.ID), nil)
	}
	msgs, err := c.Messages(ctx, s.ID, 0)
	if err != nil {
		return Resumed{}, err
	}
	agent = strings.TrimSpace(agent)
	var info wire.Agent
	if agent == "" {
		agent = SessionAgent(s, msgs)
		if s.ParentID != "" && agent != "" {
			if info, err = agentNamed(ctx, c, agent); err != nil {
				return Resumed{}, err
			}
		}
	} else if info, err = checkAgent(ctx, c, agent, s.ParentID == ""); err != nil {
		return Resumed{}, err
	}
	req := client.PromptRequest{Agent: agent, Parts: textParts(prompt)}
	if s.ParentID != "" {
		// A child is an async task: keep it from asking questions nobody
		// answers, as at launch, by the same rule.
		req.Tools = disabledTools(TaskDeniedTools(info))
	}
	if err := c.PromptAsync(ctx, s.ID, req); err != nil {
		if client.IsNotFound(err) {
			return Resumed{}, task.NewError(task.ErrNoSession, fmt.Sprintf("no session %s on this server (deleted just now?)", s.ID), err)
		}
		return Resumed{}, fmt.Errorf("prompt %s: %w", s.ID, err)
	}
	return Resumed{Session: s, Agent: agent, After: newestID(msgs)}, nil
}

// newestID is the id of the newest message (ids ascend with time on the
// server that made them), "" for none.
func newestID(msgs []wire.MessageWithParts) string {
	var id string
	for _, m := range msgs {
		id = max(id, m.Info.ID)
	}
	return id
}

// SessionAgent is the agent a session runs as: the agent of its latest
// message that names one, else the session's own (1.18 records it on the
// session, 1.1 does not). Empty means the server's default.
func SessionAgent(s wire.Session, msgs []wire.MessageWithParts) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if a := msgs[i].Info.Agent; a != "" {
			return a
		}
	}
	return s.Agent
}
