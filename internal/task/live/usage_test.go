package live

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
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
	u := SessionUsage(s, usageMsgs(), todos, false, 1000)
	want := TokenCounts{Input: 14, Output: 10, CacheRead: 3, CacheWrite: 6}
	if u.Tokens != want || u.Cost == nil || *u.Cost != 1 || u.Unpriced != 0 {
		t.Errorf("tokens %+v cost %v unpriced %d, want %+v, 1 and none", u.Tokens, u.Cost, u.Unpriced, want)
	}
	if u.Started != 100 || u.Ended != 200 || u.DurationMS != 100 || u.LastActivity != 200 {
		t.Errorf("times: started %d ended %d duration %d last %d, want 100 200 100 200", u.Started, u.Ended, u.DurationMS, u.LastActivity)
	}
	if u.FilesChanged != 2 || u.Todos != (TodoCounts{Total: 3, Done: 2}) {
		t.Errorf("files %d todos %+v", u.FilesChanged, u.Todos)
	}
	r := SessionUsage(s, usageMsgs(), nil, true, 1000)
	if r.Ended != 0 || r.DurationMS != 900 {
		t.Errorf("running: ended %d duration %d, want 0 and 900", r.Ended, r.DurationMS)
	}
	empty := SessionUsage(s, nil, nil, false, 1000)
	if empty.Started != 90 || empty.Ended != 0 || empty.DurationMS != 0 || empty.LastActivity != 90 {
		t.Errorf("never ran: %+v", empty)
	}
}

func TestRollUp(t *testing.T) {
	s := wire.Session{ID: "ses_a", Time: wire.SessionTime{Created: 90}}
	msgs := usageMsgs()
	leaf := &Node{ID: "ses_c", Usage: SessionUsage(s, msgs, []wire.Todo{{Status: wire.TodoPending}}, false, 1000)}
	// The child changed b.go too, and started earlier than its parent's
	// first prompt: the subtree counts b.go once and starts at 50.
	msgs[0].Info.Summary.Diffs = []wire.FileDiff{{File: "b.go"}, {File: "c.go"}}
	msgs[0].Info.Time.Created = 50
	child := &Node{ID: "ses_b", Usage: SessionUsage(s, msgs, nil, true, 1000), Children: []*Node{leaf}}
	root := &Node{ID: "ses_a", Usage: SessionUsage(s, usageMsgs(), nil, false, 1000), Children: []*Node{child}}
	RollUp([]*Node{root}, 1000)
	sub := root.Subtree
	if sub.Tokens.Input != 42 || sub.Cost == nil || *sub.Cost != 3 || sub.FilesChanged != 3 || sub.Todos.Total != 1 {
		t.Errorf("subtree %+v: want 42 input tokens, cost 3, 3 files, 1 todo", sub)
	}
	if sub.Started != 50 || sub.Ended != 0 || sub.DurationMS != 950 {
		t.Errorf("a subtree with a running child: started %d ended %d duration %d, want 50 0 950", sub.Started, sub.Ended, sub.DurationMS)
	}
	if leaf.Subtree.Tokens != leaf.Tokens || leaf.Subtree.Ended != 200 {
		t.Errorf("a leaf's subtree is itself: %+v vs %+v", leaf.Subtree, leaf.Usage)
	}
	if root.FilesChanged != 2 || root.Ended != 200 {
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
		return &Node{ID: id, Usage: SessionUsage(wire.Session{ID: id}, msgs, nil, false, 0)}
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
			nd := &Node{ID: fmt.Sprint(i), Usage: SessionUsage(wire.Session{}, msgs, nil, false, 0)}
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
	child := &Node{ID: "ses_b", Usage: SessionUsage(s, unpriced, nil, false, 1000)}
	root := &Node{ID: "ses_a", Usage: SessionUsage(s, usageMsgs(), nil, false, 1000), Children: []*Node{child}}
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
