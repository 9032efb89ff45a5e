package live

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

func usageMsgs() []wire.MessageWithParts {
	tok := func(in, out float64) *wire.Tokens {
		return &wire.Tokens{Input: in, Output: out, Cache: wire.TokensCache{Read: 1, Write: 2}}
	}
	return []wire.MessageWithParts{
		{Info: wire.Message{ID: "m1", Role: "user", Time: wire.MessageTime{Created: 100},
			Summary: &wire.MessageSummary{Diffs: []wire.FileDiff{{File: "a.go"}, {File: "b.go"}}}}},
		// Own totals: its step-finish parts must not count again.
		{Info: wire.Message{ID: "m2", Role: "assistant", Cost: 0.5, Tokens: *tok(10, 5),
			Time: wire.MessageTime{Created: 110, Completed: 150}},
			Parts: []wire.Part{{ID: "s1", Type: wire.PartStepFinish, Tokens: tok(10, 5), Cost: 0.5},
				{ID: "t1", Type: wire.PartTool, State: &wire.ToolState{Status: "completed", Time: wire.ToolTime{Start: 120, End: 160}}}}},
		// No totals yet: its step-finish parts count.
		{Info: wire.Message{ID: "m3", Role: "assistant", Time: wire.MessageTime{Created: 170, Completed: 200}},
			Parts: []wire.Part{{ID: "s2", Type: wire.PartStepFinish, Tokens: tok(3, 4), Cost: 0.25},
				{ID: "s3", Type: wire.PartStepFinish, Tokens: tok(1, 1), Cost: 0.25}}},
	}
}

func TestSessionUsage(t *testing.T) {
	s := wire.Session{ID: "ses_a", Time: wire.SessionTime{Created: 90}}
	todos := []wire.Todo{{Status: wire.TodoCompleted}, {Status: wire.TodoInProgress}, {Status: wire.TodoCompleted}}
	u := SessionUsage(s, usageMsgs(), todos)
	want := TokenCounts{Input: 14, Output: 10, CacheRead: 3, CacheWrite: 6}
	if u.Tokens != want || u.Cost == nil || *u.Cost != 1 || u.Unpriced != 0 {
		t.Errorf("tokens %+v cost %v unpriced %d, want %+v, 1 and none", u.Tokens, u.Cost, u.Unpriced, want)
	}
	if u.LastActivity != 200 {
		t.Errorf("last activity %d, want 200", u.LastActivity)
	}
	if u.FilesChanged != 2 || u.Todos != (TodoCounts{Total: 3, Done: 2}) {
		t.Errorf("files %d todos %+v", u.FilesChanged, u.Todos)
	}
	if empty := SessionUsage(s, nil, nil); empty.Started != 90 || empty.LastActivity != 90 {
		t.Errorf("never ran: %+v", empty)
	}
}

// TestSetRuns: a session's times are its runs': started at the first,
// ended at the last, lasting their sum (the one going on until now).
func TestSetRuns(t *testing.T) {
	var u Usage
	u.SetRuns([]model.Run{{Start: 100, End: 200}, {Start: 900, End: 950}}, 90, 1000)
	if u.Started != 100 || u.Ended != 950 || u.DurationMS != 150 || len(u.Runs) != 2 || u.Runs[1] != (Run{900, 950}) {
		t.Errorf("ended: %+v, want 100 950 150 and both runs", u)
	}
	u.SetRuns([]model.Run{{Start: 100, End: 200}, {Start: 900, End: 0}}, 90, 1000)
	if u.Started != 100 || u.Ended != 0 || u.DurationMS != 200 || !u.running {
		t.Errorf("running: %+v, want 100 0 200", u)
	}
	u.SetRuns(nil, 90, 1000)
	if u.Started != 90 || u.Ended != 0 || u.DurationMS != 0 || u.Runs != nil {
		t.Errorf("never ran: %+v", u)
	}
}

func TestRollUp(t *testing.T) {
	s := wire.Session{ID: "ses_a", Time: wire.SessionTime{Created: 90}}
	msgs := usageMsgs()
	timed := func(u Usage, start, end int64) Usage {
		u.SetRuns([]model.Run{{Start: start, End: end}}, 90, 1000)
		return u
	}
	leaf := &Node{ID: "ses_c", Usage: timed(SessionUsage(s, msgs, []wire.Todo{{Status: wire.TodoPending}}), 100, 200)}
	// The child changed b.go too, and started earlier than its parent's
	// first prompt: the subtree counts b.go once and starts at 50.
	msgs[0].Info.Summary.Diffs = []wire.FileDiff{{File: "b.go"}, {File: "c.go"}}
	child := &Node{ID: "ses_b", Usage: timed(SessionUsage(s, msgs, nil), 50, 0), Children: []*Node{leaf}}
	root := &Node{ID: "ses_a", Usage: timed(SessionUsage(s, usageMsgs(), nil), 100, 200), Children: []*Node{child}}
	RollUp([]*Node{root}, 1000)
	sub := root.Subtree
	if sub.Tokens.Input != 42 || sub.Cost == nil || *sub.Cost != 3 || sub.FilesChanged != 3 || sub.Todos.Total != 1 {
		t.Errorf("subtree %+v: want 42 input tokens, cost 3, 3 files, 1 todo", sub)
	}
	if sub.Started != 50 || sub.Ended != 0 || sub.DurationMS != 950 || sub.Runs != nil {
		t.Errorf("a subtree with a running child: started %d ended %d duration %d runs %v, want 50 0 950 none",
			sub.Started, sub.Ended, sub.DurationMS, sub.Runs)
	}
	if leaf.Subtree.Tokens != leaf.Tokens || leaf.Subtree.Ended != 200 {
		t.Errorf("a leaf's subtree is itself: %+v vs %+v", leaf.Subtree, leaf.Usage)
	}
	if root.FilesChanged != 2 || root.Ended != 200 || root.DurationMS != 100 {
		t.Errorf("RollUp changed the node's own usage: %+v", root.Usage)
	}
}

// TestRollUpSiblingsAndChain: every level's subtree counts each file
// once, the largest child's set taken over and the others merged in.
func TestRollUpSiblingsAndChain(t *testing.T) {
	withFiles := func(id string, files ...string) *Node {
		msgs := []wire.MessageWithParts{{Info: wire.Message{Role: "user", Summary: &wire.MessageSummary{}}}}
		for _, f := range files {
			msgs[0].Info.Summary.Diffs = append(msgs[0].Info.Summary.Diffs, wire.FileDiff{File: f})
		}
		return &Node{ID: id, Usage: SessionUsage(wire.Session{ID: id}, msgs, nil)}
	}
	big, small := withFiles("big", "a", "b", "c"), withFiles("small", "c", "d")
	mid := withFiles("mid", "a", "e")
	mid.Children = []*Node{small, big}
	root := withFiles("root", "z")
	root.Children = []*Node{mid}
	RollUp([]*Node{root}, 0)
	for _, c := range []struct {
		n    *Node
		want int
	}{{big, 3}, {small, 2}, {mid, 5}, {root, 6}} {
		if c.n.Subtree.FilesChanged != c.want {
			t.Errorf("%s: %d files in its subtree, want %d", c.n.ID, c.n.Subtree.FilesChanged, c.want)
		}
	}
}

// BenchmarkRollUpChain rolls up a chain of 2,000 sessions that each
// changed a file of their own: linear since the sets are taken over, not
// copied up the chain.
func BenchmarkRollUpChain(b *testing.B) {
	const n = 2000
	for b.Loop() {
		b.StopTimer()
		var root, prev *Node
		for i := range n {
			msgs := []wire.MessageWithParts{{Info: wire.Message{Role: "user", Summary: &wire.MessageSummary{
				Diffs: []wire.FileDiff{{File: fmt.Sprintf("f%d.go", i)}}}}}}
			nd := &Node{ID: fmt.Sprint(i), Usage: SessionUsage(wire.Session{}, msgs, nil)}
			if prev == nil {
				root = nd
			} else {
				prev.Children = []*Node{nd}
			}
			prev = nd
		}
		b.StartTimer()
		RollUp([]*Node{root}, 0)
		if root.Subtree.FilesChanged != n {
			b.Fatalf("%d files", root.Subtree.FilesChanged)
		}
	}
}

// TestUsageUnpriced: a reply that used tokens with no cost is counted
// unpriced; a session none of whose replies is priced has cost null in
// JSON, and a subtree with some priced is their sum beside the count.
func TestUsageUnpriced(t *testing.T) {
	s := wire.Session{ID: "ses_a", Time: wire.SessionTime{Created: 90}}
	unpriced := []wire.MessageWithParts{
		{Info: wire.Message{ID: "m1", Role: "assistant", Tokens: wire.Tokens{Input: 300, Output: 15}, Time: wire.MessageTime{Created: 100, Completed: 110}}},
		{Info: wire.Message{ID: "m2", Role: "assistant", Time: wire.MessageTime{Created: 120, Completed: 130}}}, // no tokens: nothing to price
	}
	child := &Node{ID: "ses_b", Usage: SessionUsage(s, unpriced, nil)}
	root := &Node{ID: "ses_a", Usage: SessionUsage(s, usageMsgs(), nil), Children: []*Node{child}}
	RollUp([]*Node{root}, 1000)
	for _, c := range []struct {
		what string
		u    Usage
		want string
	}{
		{"the unpriced child", child.Usage, `"cost":null,"unpriced_replies":1,`},
		{"its subtree", *child.Subtree, `"cost":null,"unpriced_replies":1,`},
		{"the priced root", root.Usage, `"cost":1,"unpriced_replies":0,`},
		{"the root's subtree", *root.Subtree, `"cost":1,"unpriced_replies":1,`},
	} {
		b, err := json.Marshal(c.u)
		if err != nil || !strings.Contains(string(b), c.want) {
			t.Errorf("%s: %s (%v), want %s", c.what, b, err, c.want)
		}
	}
}
