package actions

import (
	"context"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/wire"
)

// running reports whether a status means the session is working: busy, or
// waiting to retry a provider error (an abort stops both).
func running(st wire.SessionStatus) bool {
	return st.Type == wire.StatusBusy || st.Type == wire.StatusRetry
}

// AbortOrder lists the running sessions of the subtree rooted at id in the
// order to abort them: descendants deepest first (siblings in creation
// order), then id itself if it runs. Aborting leaves before their parents
// means no parent sees a child's cancellation as a tool error it then acts
// on while still running. Sessions outside the subtree never appear.
//
// The plan is the model's (State.BusyDescendants), the same one the
// screen's X confirms, built here from a REST read of the server.
func AbortOrder(sessions []wire.Session, status map[string]wire.SessionStatus, id string) []wire.Session {
	st := model.New()
	st.ApplySnapshot(model.Snapshot{Sessions: sessions, Status: status, Complete: true})
	byID := make(map[string]wire.Session, len(sessions))
	for _, s := range sessions {
		byID[s.ID] = s
	}
	ids := st.BusyDescendants(id)
	if running(status[id]) {
		ids = append(ids, id)
	}
	out := make([]wire.Session, 0, len(ids))
	for _, x := range ids {
		if s, ok := byID[x]; ok {
			out = append(out, s)
		}
	}
	return out
}

// Node is one session of the tree `octop tree` prints.
type Node struct {
	ID       string `json:"id"`
	ParentID string `json:"parentID,omitempty"`
	Title    string `json:"title"`
	Agent    string `json:"agent,omitempty"`
	// Status is running, complete or error, as in a TaskResult, except
	// that a session with no messages is "idle".
	Status string `json:"status"`
	// Run is the server's run state: idle, busy or retry.
	Run   string     `json:"run"`
	Error string     `json:"error,omitempty"`
	Tools ToolCounts `json:"tools"`
	// Created is the creation time in Unix ms.
	Created int64 `json:"created"`
	// Usage (tokens, cost, times, files changed, todos) is inlined; Subtree
	// is the same over the node and all its descendants.
	Usage
	Subtree  *Usage  `json:"subtree,omitempty"`
	Children []*Node `json:"children"`
}

// ToolCounts counts a session's tool calls over its whole history.
type ToolCounts struct {
	Total     int `json:"total"`
	Running   int `json:"running"`
	Completed int `json:"completed"`
	Failed    int `json:"failed"`
}

// StateIdle is a session that never ran (no messages).
const StateIdle = "idle"

// treeFetchers bounds how many message lists Tree reads at once.
const treeFetchers = 4

// Tree reads every session of the directory with its status and tool-call
// counts and returns the roots, newest first, each with its children in
// creation order. A session whose parent is not on the server counts as a
// root.
func Tree(ctx context.Context, c *client.Client) ([]*Node, error) {
	sessions, err := c.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	status, err := c.Status(ctx)
	if err != nil {
		return nil, err
	}
	now := time.Now().UnixMilli()
	nodes := make([]*Node, len(sessions))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(treeFetchers)
	for i, s := range sessions {
		g.Go(func() error {
			msgs, err := c.Messages(gctx, s.ID, 0)
			if err != nil {
				if client.IsNotFound(err) { // deleted since the list was read
					msgs = nil
				} else {
					return err
				}
			}
			todos, err := c.Todos(gctx, s.ID)
			if err != nil && !client.IsNotFound(err) {
				return err
			}
			nodes[i] = newNode(s, status[s.ID], msgs)
			nodes[i].Usage = SessionUsage(s, msgs, todos, nodes[i].Status == StateRunning, now)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	roots := BuildTree(nodes)
	RollUp(roots, now)
	return roots, nil
}

func newNode(s wire.Session, st wire.SessionStatus, msgs []wire.MessageWithParts) *Node {
	r := DeriveResult(s, st, msgs)
	n := &Node{ID: s.ID, ParentID: s.ParentID, Title: s.Title, Agent: r.Agent, Status: r.State,
		Run: st.Type, Error: r.ErrorLine(), Created: s.Time.Created, Children: []*Node{}}
	if n.Run == "" {
		n.Run = wire.StatusIdle
	}
	if len(msgs) == 0 && !running(st) {
		n.Status = StateIdle
	}
	for _, m := range msgs {
		for _, p := range m.Parts {
			if p.Type != wire.PartTool || p.State == nil {
				continue
			}
			n.Tools.Total++
			switch p.State.Status {
			case wire.ToolPending, wire.ToolRunning:
				n.Tools.Running++
			case wire.ToolCompleted:
				n.Tools.Completed++
			case wire.ToolError:
				n.Tools.Failed++
			}
		}
	}
	return n
}

// BuildTree links nodes by ParentID and returns the roots, newest first,
// with children in creation order; a node whose parent is not among them
// is a root. The shape is the model's, the same tree the screen draws.
func BuildTree(nodes []*Node) []*Node {
	byID := make(map[string]*Node, len(nodes))
	sessions := make([]wire.Session, len(nodes))
	for i, n := range nodes {
		byID[n.ID] = n
		sessions[i] = wire.Session{ID: n.ID, ParentID: n.ParentID,
			Time: wire.SessionTime{Created: n.Created, Updated: n.Created}}
	}
	st := model.New()
	st.ApplySnapshot(model.Snapshot{Sessions: sessions, Complete: true})
	var link func(ids []string) []*Node
	link = func(ids []string) []*Node {
		out := []*Node{}
		for _, id := range ids {
			n, s := byID[id], st.Session(id)
			if n == nil || s == nil {
				continue
			}
			n.Children = link(s.Children)
			out = append(out, n)
		}
		return out
	}
	return link(st.Roots())
}
