package live

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// RetrySource is the launch that retries session id: a new task under the
// same parent (a new root for a root), with the original task's prompt,
// agent and description, and RetryOf set to id so its title names the
// session it retries.
//
// For a child they come from its parent's task call that started it; for
// a root, or a child no task call started (one octop launched), from its
// first prompt and the agent that prompt went to, the description from its
// title. It refuses with task.ErrBusy while the session runs (abort it
// first), as it does for a session with no prompt to repeat. It sends
// nothing that changes the server.
func RetrySource(ctx context.Context, c *client.Client, id string) (task.LaunchRequest, error) {
	s, err := lookup(ctx, c, id)
	if err != nil {
		return task.LaunchRequest{}, err
	}
	st, err := statusOf(ctx, c, s.ID)
	if err != nil {
		return task.LaunchRequest{}, err
	}
	if running(st) {
		return task.LaunchRequest{}, task.NewError(task.ErrBusy, fmt.Sprintf(
			"%s is still running; abort it first (octop abort %s), or tell it what to change (octop say %s …)", s.ID, s.ID, s.ID), nil)
	}
	req := task.LaunchRequest{Parent: s.ParentID, RetryOf: s.ID}
	if s.ParentID != "" {
		pmsgs, err := c.Messages(ctx, s.ParentID, 0)
		if err != nil {
			return task.LaunchRequest{}, err
		}
		if in, ok := taskCallOf(pmsgs, s); ok {
			req.Description, req.Prompt, req.Agent = in.Description, in.Prompt, in.Agent
		}
	}
	if req.Prompt == "" {
		msgs, err := c.Messages(ctx, s.ID, 0)
		if err != nil {
			return task.LaunchRequest{}, err
		}
		req.Prompt, req.Agent = firstPrompt(msgs)
		if req.Agent == "" {
			req.Agent = SessionAgent(s, msgs)
		}
		req.Description = titleDescription(s.Title)
	}
	if strings.TrimSpace(req.Prompt) == "" {
		return task.LaunchRequest{}, task.NewError(task.ErrInvalid, fmt.Sprintf(
			"%s has no prompt to repeat; launch a new task instead (octop launch)", s.ID), nil)
	}
	if strings.TrimSpace(req.Description) == "" {
		req.Description = "retry of " + s.ID
	}
	return req, nil
}

// Retry starts a new task that retries session id (see RetrySource):
// prompt and agent, when not empty, replace the original's. It returns the
// new session and the launch it made; nothing is created when a check
// fails.
func Retry(ctx context.Context, c *client.Client, id, prompt, agent string) (wire.Session, task.LaunchRequest, error) {
	req, err := RetrySource(ctx, c, id)
	if err != nil {
		return wire.Session{}, req, err
	}
	if strings.TrimSpace(prompt) != "" {
		req.Prompt = prompt
	}
	if strings.TrimSpace(agent) != "" {
		req.Agent = agent
	}
	if strings.TrimSpace(req.Agent) == "" {
		return wire.Session{}, req, task.NewError(task.ErrInvalid, fmt.Sprintf(
			"%s does not say which agent ran it; name one with --agent", id), nil)
	}
	s, err := Launch(ctx, c, req)
	return s, req, err
}

// taskInput is what a retry takes from a task call's input.
type taskInput struct {
	Description string `json:"description"`
	Prompt      string `json:"prompt"`
	Agent       string `json:"subagent_type"`
}

// taskCallOf finds, in a parent's messages, the task call that started
// child: the one that names it (metadata or output), else, as 1.1.x names
// no child while a call runs and a dead call never ends, the one whose
// description and agent make the child's title.
func taskCallOf(parent []wire.MessageWithParts, child wire.Session) (taskInput, bool) {
	var byTitle *taskInput
	for i := range parent {
		for j := range parent[i].Parts {
			p := &parent[i].Parts[j]
			if p.Type != wire.PartTool || p.Tool != "task" || p.State == nil {
				continue
			}
			var in taskInput
			if json.Unmarshal(p.State.Input, &in) != nil || in.Prompt == "" {
				continue
			}
			if model.TaskChild(p.State) == child.ID {
				return in, true
			}
			if byTitle == nil && child.Title == TaskTitle(in.Description, in.Agent) {
				byTitle = &in
			}
		}
	}
	if byTitle != nil {
		return *byTitle, true
	}
	return taskInput{}, false
}

// firstPrompt is the text of a session's first prompt (its text parts the
// person wrote, joined) and the agent it went to.
func firstPrompt(msgs []wire.MessageWithParts) (text, agent string) {
	for _, m := range msgs {
		if m.Info.Role != "user" {
			continue
		}
		var parts []string
		for _, p := range m.Parts {
			if p.Type == wire.PartText && !p.Synthetic && strings.TrimSpace(p.Text) != "" {
				parts = append(parts, p.Text)
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "\n"), m.Info.Agent
		}
	}
	return "", ""
}

// titleDescription is the description a title was made of: without a
// retry mark and without a task's " (@agent subagent)" suffix.
func titleDescription(title string) string {
	title, _ = model.SplitRetry(title)
	if head, ok := strings.CutSuffix(title, " subagent)"); ok {
		if i := strings.LastIndex(head, " (@"); i >= 0 {
			return strings.TrimSpace(head[:i])
		}
	}
	return strings.TrimSpace(title)
}
