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
	// Started is when the first run began (Unix ms), else the creation.
	Started int64 `json:"started"`
	// Ended is when the last run ended (model.State.Ended: a run cut short
	// by an abort or a crash ends at the last thing it, or a child it
	// waited on, was seen doing); 0 while running, or never ran.
	Ended int64 `json:"ended"`
	// DurationMS is, for a session, the sum of its runs (the idle time
	// between two is in neither), the one going on counted until now; for
	// a subtree, the time from its first start to its last end (or now).
	DurationMS int64 `json:"duration_ms"`
	// Runs are when the session ran (model.State.Runs), oldest first;
	// none under subtree.
	Runs []Run `json:"runs,omitempty"`
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

// Run is one run of a session (model.Run), in Unix ms; End is 0 while it
// goes on.
type Run struct {
	Start int64 `json:"start"`
	End   int64 `json:"end"`
}

// TokenCounts splits tokens the way the server counts them (the ledger's
// split, so `octop tree` and `octop usage` count alike).
type TokenCounts = usage.Tokens

// TodoCounts counts a todo list: all items, and those completed.
type TodoCounts struct {
	Total int `json:"total"`
	Done  int `json:"done"`
}

// SessionUsage adds up one session's messages and todo list. Its times
// are the model's: see SetRuns.
func SessionUsage(s wire.Session, msgs []wire.MessageWithParts, todos []wire.Todo) Usage {
	u := Usage{Started: s.Time.Created, LastActivity: s.Time.Created}
	u.addCost(model.Cost{})
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
	return u
}

// SetRuns takes a session's times from its runs (model.State.Runs): it
// started when the first began (else at its creation, created), ended when
// the last ended, and ran for their sum, the one going on until now.
func (u *Usage) SetRuns(runs []model.Run, created, now int64) {
	u.Runs, u.Started, u.Ended, u.DurationMS, u.running = nil, created, 0, 0, false
	for _, r := range runs {
		u.Runs = append(u.Runs, Run(r))
		end := r.End
		if end == 0 {
			end, u.running = now, true
		}
		u.DurationMS += max(end-r.Start, 0)
	}
	if n := len(runs); n > 0 {
		u.Started, u.Ended = runs[0].Start, runs[n-1].End
	}
}

func (u *Usage) addMessage(m *wire.MessageWithParts) {
	info := &m.Info
	u.seen(info.Time.Created)
	u.seen(info.Time.Completed)
	if info.Role == "user" && info.Summary != nil {
		for _, d := range info.Summary.Diffs {
			if u.files == nil {
				u.files = map[string]bool{} // most sessions change none
			}
			u.files[d.File] = true
		}
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

// setSpan is a subtree's duration: from its first start to its last end,
// or until now while some of it runs.
func (u *Usage) setSpan(now int64) {
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
	sub.files, sub.Runs = nil, nil
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
	sub.setSpan(now)
	n.Subtree = &sub
}
