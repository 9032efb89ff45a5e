package live

import (
	"github.com/octop-dev/octop/internal/usage"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Usage is what a session, or a whole subtree, used and did, as
// `octop tree --json` gives it. Every figure adds up the session's REST
// messages: for each assistant message its own tokens and cost, or, when
// it has none yet, those of its step-finish parts.
type Usage struct {
	Tokens TokenCounts `json:"tokens"`
	// Cost is the priced replies' sum (USD), or nil (null) when nothing
	// is priced; Unpriced counts the replies that used tokens with no
	// cost reported, which Cost leaves out (model.Cost).
	Cost     *float64 `json:"cost"`
	Unpriced int      `json:"unpriced_replies"`
	// Started is when the first prompt came (Unix ms), else the creation.
	Started int64 `json:"started"`
	// Ended is when the last reply completed, or, for a run cut short (an
	// abort, a crash), when it was last seen doing something (see
	// model.State.Ended); 0 while running, or never ran.
	Ended int64 `json:"ended"`
	// DurationMS is Ended-Started, or now-Started while running.
	DurationMS int64 `json:"duration_ms"`
	// LastActivity is the latest time any message or part names.
	LastActivity int64      `json:"last_activity"`
	FilesChanged int        `json:"files_changed"`
	Todos        TodoCounts `json:"todos"`

	files   map[string]bool // the changed paths, so a subtree counts each once
	usd     float64         // the priced replies' sum, whatever Cost says
	running bool
}

// TotalCost is the cost beside its count of unpriced replies.
func (u *Usage) TotalCost() model.Cost { return model.Cost{USD: u.usd, Unpriced: u.Unpriced} }

// addCost adds a cost and sets Cost as JSON writes it.
func (u *Usage) addCost(c model.Cost) {
	u.usd += c.USD
	u.Unpriced += c.Unpriced
	u.Cost = u.TotalCost().JSON()
}

// TokenCounts splits tokens the way the server counts them (the ledger's
// split, so `octop tree` and `octop usage` count alike).
type TokenCounts = usage.Tokens

// TodoCounts counts a todo list: all items, and those completed.
type TodoCounts struct {
	Total int `json:"total"`
	Done  int `json:"done"`
}

// SessionUsage adds up one session's messages and todo list. running says
// whether it still runs; now (Unix ms) ends a running session's duration.
func SessionUsage(s wire.Session, msgs []wire.MessageWithParts, todos []wire.Todo, running bool, now int64) Usage {
	u := Usage{Started: s.Time.Created, LastActivity: s.Time.Created, running: running}
	u.addCost(model.Cost{})
	if len(msgs) > 0 {
		u.Started = msgs[0].Info.Time.Created
	}
	for i := range msgs {
		u.addMessage(&msgs[i])
	}
	for _, t := range todos {
		u.Todos.Total++
		if t.Status == wire.TodoCompleted {
			u.Todos.Done++
		}
	}
	u.FilesChanged = len(u.files)
	if running || len(msgs) == 0 {
		u.Ended = 0
	}
	u.setDuration(now)
	return u
}

func (u *Usage) addMessage(m *wire.MessageWithParts) {
	info := &m.Info
	u.seen(info.Time.Created)
	u.seen(info.Time.Completed)
	if info.Role == "user" {
		if info.Summary != nil {
			for _, d := range info.Summary.Diffs {
				if u.files == nil {
					u.files = map[string]bool{} // most sessions change none
				}
				u.files[d.File] = true
			}
		}
	} else {
		u.Ended = max(u.Ended, info.Time.Completed)
	}
	if r, ok := usage.ReplyOf(m); ok {
		u.Tokens.Add(r.Tokens)
		c := model.Cost{USD: r.Cost}
		if !r.Priced {
			c.Unpriced = 1
		}
		u.addCost(c)
	}
	for i := range m.Parts {
		p := &m.Parts[i]
		if p.Time != nil {
			u.seen(p.Time.Start)
			u.seen(p.Time.End)
		}
		if p.State != nil {
			u.seen(p.State.Time.Start)
			u.seen(p.State.Time.End)
		}
	}
}

func (u *Usage) seen(t int64) { u.LastActivity = max(u.LastActivity, t) }

func (u *Usage) setDuration(now int64) {
	switch {
	case u.running:
		u.DurationMS = max(0, now-u.Started)
	case u.Ended > 0:
		u.DurationMS = max(0, u.Ended-u.Started)
	default:
		u.DurationMS = 0
	}
}

// RollUp fills each node's Subtree: its own usage plus every
// descendant's. A subtree has ended only once all of it has; a file
// changed by several of its sessions counts once.
//
// It walks the tree after its children (an explicit stack: a chain of
// thousands of sessions must not grow the goroutine stack), and a node's
// set of changed files is its largest child's set with the others' added
// in, never a copy: the work is linear in the sessions and files whatever
// the depth, where copying each set up a long chain was quadratic.
func RollUp(roots []*Node, now int64) {
	type frame struct {
		n    *Node
		next int // the next child to visit
	}
	for _, r := range roots {
		stack := []frame{{n: r}}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(top.n.Children) {
				c := top.n.Children[top.next]
				top.next++
				stack = append(stack, frame{n: c})
				continue
			}
			rollUpNode(top.n, now)
			stack = stack[:len(stack)-1]
		}
	}
}

// rollUpNode sets n.Subtree from n's own usage and its children's
// subtrees, which are done. It takes over the largest child's file set.
func rollUpNode(n *Node, now int64) {
	sub := n.Usage
	sub.files = nil
	taken := -1 // the child whose set sub.files is
	for i, c := range n.Children {
		if cs := c.Subtree; cs != nil && len(cs.files) > len(sub.files) {
			sub.files, taken = cs.files, i
		}
	}
	if sub.files == nil && len(n.files) > 0 {
		// No child changed a file (the largest set is empty), n did.
		sub.files = make(map[string]bool, len(n.files))
	}
	for f := range n.files {
		sub.files[f] = true
	}
	for i, c := range n.Children {
		cu := c.Subtree
		if cu == nil {
			continue
		}
		sub.Tokens.Add(cu.Tokens)
		sub.addCost(cu.TotalCost())
		sub.Started = min(sub.Started, cu.Started)
		sub.Ended = max(sub.Ended, cu.Ended)
		sub.LastActivity = max(sub.LastActivity, cu.LastActivity)
		sub.Todos.Total += cu.Todos.Total
		sub.Todos.Done += cu.Todos.Done
		sub.running = sub.running || cu.running
		if i != taken {
			for f := range cu.files {
				sub.files[f] = true
			}
		}
		cu.files = nil // in the parent's set now (which may be this very map)
	}
	sub.FilesChanged = len(sub.files)
	if sub.running {
		sub.Ended = 0
	}
	sub.setDuration(now)
	n.Subtree = &sub
}
