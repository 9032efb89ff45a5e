package live

import (
	"context"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// running reports whether a status means the session is working: busy, or
// waiting to retry a provider error (an abort stops both).
func running(st wire.SessionStatus) bool {
	return st.Type == wire.StatusBusy || st.Type == wire.StatusRetry
}

// AbortOrder lists the sessions aborting the subtree rooted at id stops,
// in order: the model's plan (State.AbortPlan), the same one the
// screen's X confirms, made from a REST read of the server. Sessions
// outside the subtree never appear.
func AbortOrder(sessions []wire.Session, status map[string]wire.SessionStatus, id string) []wire.Session {
	st := model.New()
	st.ApplySnapshot(model.Snapshot{Sessions: sessions, Status: status, Complete: true})
	byID := make(map[string]wire.Session, len(sessions))
	for _, s := range sessions {
		byID[s.ID] = s
	}
	ids := st.AbortPlan(id)
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
	// Server is the URL of the server that holds the session (without
	// credentials); `octop tree` sets it on roots.
	Server   string `json:"server,omitempty"`
	ID       string `json:"id"`
	ParentID string `json:"parentID,omitempty"`
	Title    string `json:"title"`
	Agent    string `json:"agent,omitempty"`
	// RetryOf is the session this one retries (octop retry), as its title
	// says (model.State.RetryOf).
	RetryOf string `json:"retryOf,omitempty"`
	// Status is running, complete or error, as in a task.Result, except
	// that a session with no messages is "idle".
	Status string `json:"status"`
	// Reason says why an error is one: aborted, interrupted, denied, or
	// the error's name (model.StateOf's Reason); for a running session
	// that is idle while background tasks it launched run, "background";
	// for one idle a moment ago without a word on how its run ended,
	// "stopping".
	Reason string `json:"reason,omitempty"`
	// Run is the server's run state: idle, busy or retry.
	Run string `json:"run"`
	// Error is the reason in one line for a person.
	Error string     `json:"error,omitempty"`
	Tools ToolCounts `json:"tools"`
	// Created is the creation time in Unix ms.
	Created int64 `json:"created"`
	// Usage (tokens, cost, times, files changed, todos) is inlined; Subtree
	// is the same over the node and all its descendants.
	Usage
	Subtree *Usage `json:"subtree,omitempty"`
	// Reverted is set while the session's changes from a message on are
	// undone (octop undo), until a redo or its next prompt.
	Reverted *RevertedNode `json:"reverted,omitempty"`
	// Undecodable says why the server's listing of the session did not
	// decode ("title is a number"): what did (its place, its history) is
	// shown, its title not.
	Undecodable string `json:"undecodable,omitempty"`
	// Children stays the last field: `octop tree --json` writes it in
	// place (cli.nodeJSON).
	Children []*Node `json:"children"`
}

// RevertedNode is what is undone in a session: from which message, the
// files the undo changed (the server's diff), and how to bring it back.
type RevertedNode struct {
	MessageID string   `json:"messageID"`
	Files     []string `json:"files"`
	Redo      string   `json:"redo"`
}

// revertedNode is the model's revert mark as a node's.
func revertedNode(ss *model.Session) *RevertedNode {
	r := ss.Reverted()
	if r == nil {
		return nil
	}
	n := &RevertedNode{MessageID: r.MessageID, Files: []string{}, Redo: "octop redo " + ss.ID}
	for _, f := range r.Files {
		n.Files = append(n.Files, f.Path)
	}
	return n
}

// ToolCounts counts a session's tool calls over its whole history, each
// call once, by its outcome (model.CallStatus): running (or pending),
// completed, failed, aborted (cut by an abort), interrupted (left open by
// a session that has stopped).
type ToolCounts struct {
	Total       int `json:"total"`
	Running     int `json:"running"`
	Completed   int `json:"completed"`
	Failed      int `json:"failed"`
	Aborted     int `json:"aborted"`
	Interrupted int `json:"interrupted"`
}

// Tree reads every session of the directory with its status and whole
// message history (ReadForest) and returns the roots, newest first, each
// with its children in creation order. A session whose parent is not on
// the server counts as a root. A session whose id is malformed (the
// server's own would never be; a hostile or broken one's may) cannot be
// asked about: it is left out, and its id comes back in skipped for a
// warning, while the rest still print. `octop tree` itself takes the
// roots one at a time (Forest.Each), never all the Nodes at once.
func Tree(ctx context.Context, c *client.Client) (roots []*Node, skipped []string, err error) {
	f, err := ReadForest(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	roots = []*Node{}
	err = f.Each(func(r *Node) error {
		roots = append(roots, r)
		return nil
	})
	return roots, f.Skipped, err
}

// linkTree builds the tree from ids down: visit says a session's
// children and its node (nil to leave it and its subtree out). Children
// keep the order visit gives.
func linkTree(ids []string, visit func(id string) (children []string, n *Node)) []*Node {
	type pending struct {
		parent *Node
		ids    []string
	}
	roots := []*Node{}
	queue := []pending{{ids: ids}}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, id := range p.ids {
			kids, n := visit(id)
			if n == nil {
				continue
			}
			n.Children = []*Node{}
			if p.parent == nil {
				roots = append(roots, n)
			} else {
				p.parent.Children = append(p.parent.Children, n)
			}
			if len(kids) > 0 {
				queue = append(queue, pending{parent: n, ids: kids})
			}
		}
	}
	return roots
}

func nodeOf(st *model.State, ss *model.Session) *Node {
	state := model.StateOf(ss)
	n := &Node{ID: ss.ID, ParentID: ss.ParentID, Title: ss.Title, Agent: ss.Agent,
		Status: state.Kind.Status(), Run: runWord(ss.Run()), Created: ss.Created, Children: []*Node{},
		RetryOf: st.RetryOf(ss.ID), Reverted: revertedNode(ss), Undecodable: st.Undecodable(ss.ID)}
	switch {
	case n.Status == model.StatusError:
		n.Reason, n.Error = state.Reason, state.Detail
	case state.Kind.Live():
		n.Reason = state.Reason // background, stopping
	}
	c := st.Counts(ss.ID)
	n.Tools = ToolCounts{Total: c.Tools(), Running: c.ToolsRunning, Completed: c.ToolsDone, Failed: c.ToolsFailed,
		Aborted: c.ToolsAborted, Interrupted: c.ToolsInterrupted}
	return n
}

func runWord(run string) string {
	if run == wire.StatusBusy || run == wire.StatusRetry {
		return run
	}
	return wire.StatusIdle
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
	return linkTree(st.Roots(), func(id string) ([]string, *Node) {
		n, s := byID[id], st.Session(id)
		if n == nil || s == nil {
			return nil, nil
		}
		return s.ChildIDs(), n
	})
}
