package live

import (
	"context"
	"fmt"
	"strings"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
)

// baseDeniedTools are the tools an async task may never use: nobody is
// waiting on the other end to answer its questions or keep its todo list.
var baseDeniedTools = []string{"todowrite", "todoread", "question"}

// TaskDeniedTools are the tools a task run by agent may not use: the
// base ones, and "task" unless the agent's own permissions speak of it,
// the rule the native task tool follows (an agent allowed to delegate
// keeps that right as a task).
func TaskDeniedTools(agent wire.Agent) []string {
	for _, r := range agent.Permission {
		if r.Permission == "task" {
			return baseDeniedTools
		}
	}
	return append([]string{"task"}, baseDeniedTools...)
}

// DenyRulesFor are the permission rules a task run by agent is created
// with.
func DenyRulesFor(agent wire.Agent) []wire.PermissionRule { return denyRules(TaskDeniedTools(agent)) }

// DenyRules are the rules of a task whose agent says nothing of "task".
func DenyRules() []wire.PermissionRule { return DenyRulesFor(wire.Agent{}) }

// RootDenyRules are the rules of a new root session launched from octop.
// A root is there to do the work, delegating included, so only question
// is denied: nobody is in a chat to answer it.
func RootDenyRules() []wire.PermissionRule { return denyRules(rootDeniedTools) }

// rootDeniedTools are the tools a new root launched by octop may not use.
var rootDeniedTools = []string{"question"}

func denyRules(tools []string) []wire.PermissionRule {
	rules := make([]wire.PermissionRule, len(tools))
	for i, t := range tools {
		rules[i] = wire.PermissionRule{Permission: t, Pattern: "*", Action: "deny"}
	}
	return rules
}

// disabledTools is the prompt's tools map turning the denied tools off, so
// the model is not even offered them.
func disabledTools(tools []string) map[string]bool {
	m := make(map[string]bool, len(tools))
	for _, t := range tools {
		m[t] = false
	}
	return m
}

// TaskTitle is the title OpenCode's own task tool gives a child session;
// octop uses the same so a launched task looks like a native one.
func TaskTitle(description, agent string) string {
	return fmt.Sprintf("%s (@%s subagent)", description, agent)
}

// lookup reads one session, turning the possible failures into errors a
// person can act on: a malformed id is bad input (the server answers 500 to
// it), a missing one is task.ErrNoSession.
func lookup(ctx context.Context, c *client.Client, id string) (wire.Session, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return wire.Session{}, task.NewError(task.ErrInvalid, "no session id given", nil)
	}
	if !client.ValidSessionID(id) {
		return wire.Session{}, task.NewError(task.ErrInvalid, fmt.Sprintf("%q is not a session id (they look like ses_…)", id), nil)
	}
	s, err := c.Session(ctx, id)
	if err != nil {
		if client.IsNotFound(err) {
			return wire.Session{}, task.NewError(task.ErrNoSession, fmt.Sprintf("no session %s on this server", id), err)
		}
		return wire.Session{}, err
	}
	return s, nil
}

// statusOf is one session's run state; the server lists only sessions
// that are not idle.
func statusOf(ctx context.Context, c *client.Client, id string) (wire.SessionStatus, error) {
	all, err := c.Status(ctx)
	if err != nil {
		return wire.SessionStatus{}, err
	}
	st, ok := all[id]
	if !ok {
		st.Type = wire.StatusIdle
	}
	return st, nil
}

// TaskAgents returns the agents a task can run as: mode subagent or all, and
// not hidden, in the server's order.
func TaskAgents(agents []wire.Agent) []wire.Agent {
	var out []wire.Agent
	for _, a := range agents {
		if (a.Mode == "subagent" || a.Mode == "all") && !a.Hidden {
			out = append(out, a)
		}
	}
	return out
}

// checkAgent finds name among the agents of the server that can run the
// session: a task (a child) needs a subagent (mode subagent or all, not
// hidden); a root session may also run a primary agent. Otherwise it says
// which names would do.
// agentNamed reads the agent called name; a zero Agent when the server
// has none by that name.
func agentNamed(ctx context.Context, c *client.Client, name string) (wire.Agent, error) {
	agents, err := c.Agents(ctx)
	if err != nil {
		return wire.Agent{}, err
	}
	for _, a := range agents {
		if a.Name == name {
			return a, nil
		}
	}
	return wire.Agent{}, nil
}

func checkAgent(ctx context.Context, c *client.Client, name string, root bool) (wire.Agent, error) {
	agents, err := c.Agents(ctx)
	if err != nil {
		return wire.Agent{}, err
	}
	usable := TaskAgents(agents)
	if root {
		usable = nil
		for _, a := range agents {
			if !a.Hidden {
				usable = append(usable, a)
			}
		}
	}
	for _, a := range usable {
		if a.Name == name {
			return a, nil
		}
	}
	names := make([]string, len(usable))
	for i, a := range usable {
		names[i] = a.Name
	}
	for _, a := range agents {
		if a.Name == name {
			why := fmt.Sprintf("agent %q is mode %s and cannot run as a task", name, a.Mode)
			if a.Hidden {
				why = fmt.Sprintf("agent %q is hidden and cannot be prompted", name)
			}
			return wire.Agent{}, task.NewError(task.ErrInvalid, fmt.Sprintf("%s; use one of: %s", why, strings.Join(names, ", ")), nil)
		}
	}
	return wire.Agent{}, task.NewError(task.ErrInvalid, fmt.Sprintf("unknown agent %q; use one of: %s", name, strings.Join(names, ", ")), nil)
}

func textParts(prompt string) []client.TextPartInput {
	return []client.TextPartInput{{Type: "text", Text: prompt}}
}

// Found is a session looked up by id, with its run state.
type Found struct {
	Session wire.Session
	Status  wire.SessionStatus
}

// Running reports whether the session is busy or retrying.
func (f Found) Running() bool { return running(f.Status) }

// Find looks a session up by a typed or pasted id (surrounding blanks are
// ignored): task.ErrInvalid for a malformed id, task.ErrNoSession when the server has
// none. It sends nothing that changes the server.
func Find(ctx context.Context, c *client.Client, id string) (Found, error) {
	s, err := lookup(ctx, c, id)
	if err != nil {
		return Found{}, err
	}
	st, err := statusOf(ctx, c, s.ID)
	if err != nil {
		return Found{}, err
	}
	return Found{Session: s, Status: st}, nil
}
