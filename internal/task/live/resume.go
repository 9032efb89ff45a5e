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
	r, err := sendPrompt(ctx, c, id, prompt, agent, false)
	return r.Resumed, err
}

// Said is a message Say sent.
type Said struct {
	Resumed
	// Queued says the session was running when the message went: it is in
	// the conversation now, and the model sees it at its next step.
	Queued bool
}

// Say sends text to session id without waiting for it to stop (octop say,
// the screen's steer): a running session gets it in its conversation at
// once and its model sees it at its next step; an idle one is resumed with
// it, as Resume does. It goes to the agent the session runs as, with a
// child's tools kept as at launch: the server runs the rest of the run as
// its latest prompt says. It refuses as Resume does, busy apart.
func Say(ctx context.Context, c *client.Client, id, text string) (Said, error) {
	return sendPrompt(ctx, c, id, text, "", true)
}

// sendPrompt is Resume's and Say's one way to prompt a session; busy says
// whether a running session may be prompted (Say) or is refused (Resume).
func sendPrompt(ctx context.Context, c *client.Client, id, prompt, agent string, busy bool) (Said, error) {
	if strings.TrimSpace(prompt) == "" {
		return Said{}, task.NewError(task.ErrInvalid, "the prompt is empty", nil)
	}
	s, err := lookup(ctx, c, id)
	if err != nil {
		return Said{}, err
	}
	st, err := statusOf(ctx, c, s.ID)
	if err != nil {
		return Said{}, err
	}
	if running(st) && !busy {
		return Said{}, task.NewError(task.ErrBusy, fmt.Sprintf(
			"%s is still running; wait for it (octop result --wait %s), abort it first, or tell it with octop say", s.ID, s.ID), nil)
	}
	msgs, err := c.Messages(ctx, s.ID, 0)
	if err != nil {
		return Said{}, err
	}
	req, agent, err := promptFor(ctx, c, s, msgs, prompt, agent)
	if err != nil {
		return Said{}, err
	}
	if err := c.PromptAsync(ctx, s.ID, req); err != nil {
		if client.IsNotFound(err) {
			return Said{}, task.NewError(task.ErrNoSession, fmt.Sprintf("no session %s on this server (deleted just now?)", s.ID), err)
		}
		return Said{}, fmt.Errorf("prompt %s: %w", s.ID, err)
	}
	return Said{Resumed: Resumed{Session: s, Agent: agent, After: newestID(msgs)}, Queued: running(st)}, nil
}

// promptFor is the request that prompts session s (whose messages are
// msgs) with text as agent ("" for the session's own), and the agent it
// names. A child keeps the tools it was launched without.
func promptFor(ctx context.Context, c *client.Client, s wire.Session, msgs []wire.MessageWithParts, text, agent string) (client.PromptRequest, string, error) {
	agent = strings.TrimSpace(agent)
	var info wire.Agent
	var err error
	if agent == "" {
		agent = SessionAgent(s, msgs)
		if s.ParentID != "" && agent != "" {
			if info, err = agentNamed(ctx, c, agent); err != nil {
				return client.PromptRequest{}, "", err
			}
		}
	} else if info, err = checkAgent(ctx, c, agent, s.ParentID == ""); err != nil {
		return client.PromptRequest{}, "", err
	}
	req := client.PromptRequest{Agent: agent, Parts: textParts(text)}
	if s.ParentID != "" {
		// A child is an async task: keep it from asking questions nobody
		// answers, as at launch, by the same rule.
		req.Tools = disabledTools(TaskDeniedTools(info))
	}
	return req, agent, nil
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
