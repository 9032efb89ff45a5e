package otlp

import (
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/instrumentation"

	"github.com/octop-dev/octop/internal/wire"
)

// TestSpansCostUnpriced: a span carries opencode.cost_usd only when some
// of its cost is known. A session whose only priced reply used nothing
// (an aborted one) beside an unpriced one has no cost, not $0, and its
// unpriced count; a subtree's cost that leaves replies out says how many.
func TestSpansCostUnpriced(t *testing.T) {
	reply := func(id string, at int64, tokens, cost float64) wire.MessageWithParts {
		return wire.MessageWithParts{Info: wire.Message{ID: id, Role: "assistant", Agent: "general",
			Tokens: wire.Tokens{Input: tokens}, Cost: cost, Time: wire.MessageTime{Created: at, Completed: at + 10}}}
	}
	tree := Tree{Root: "ses_root", Sessions: []Session{
		{ID: "ses_root", Agent: "build", Created: t0, Msgs: []wire.MessageWithParts{reply("msg_1", t0, 100, 0.25)}},
		{ID: "ses_c", ParentID: "ses_root", Agent: "general", Created: t0 + 100,
			Msgs: []wire.MessageWithParts{reply("msg_2", t0+100, 0, 0), reply("msg_3", t0+200, 315, 0)}},
	}}
	spans, sum := Spans(tree, nil, instrumentation.Scope{Name: ScopeName})
	byName, _ := index(t, spans)
	child := attrs(byName["invoke_agent general ses_c"])
	for _, k := range []attribute.Key{AttrCost, AttrSubtreeCost} {
		if v, ok := child[k]; ok {
			t.Errorf("the unpriced child has %s = %v, want none", k, v.String())
		}
	}
	checkAttr(t, "unpriced child", child, map[string]any{"opencode.cost.unpriced_replies": int64(1),
		"opencode.subtree.cost.unpriced_replies": int64(1)})
	root := attrs(byName["invoke_agent build ses_root"])
	checkAttr(t, "root", root, map[string]any{"opencode.cost_usd": 0.25, "opencode.subtree.cost_usd": 0.25,
		"opencode.subtree.cost.unpriced_replies": int64(1)})
	if _, ok := root[AttrUnpriced]; ok {
		t.Errorf("the priced root says it has unpriced replies of its own")
	}
	if sum.Replies != 3 || sum.Unpriced != 1 {
		t.Errorf("summary %+v, want 3 replies, 1 unpriced", sum)
	}
}
