package otlp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

const t0 = int64(1_763_632_800_000) // 2025-11-20T10:00:00Z

// fanOutTree is a root (build) whose reply calls task twice: child A
// (general) reads a file that is not there and completes; child B was
// aborted with its bash call left running and its reply unpriced.
func fanOutTree(t *testing.T) Tree {
	t.Helper()
	sessions := []wire.Session{
		{ID: "ses_root", Title: "fix the bug", Time: wire.SessionTime{Created: t0, Updated: t0 + 9000}},
		{ID: "ses_a", ParentID: "ses_root", Title: "look (@general subagent)", Time: wire.SessionTime{Created: t0 + 1100}},
		{ID: "ses_b", ParentID: "ses_root", Title: "run (@general subagent)", Time: wire.SessionTime{Created: t0 + 1200}},
	}
	tok := func(in, out, cr float64) wire.Tokens {
		return wire.Tokens{Input: in, Output: out, Reasoning: 5, Cache: wire.TokensCache{Read: cr, Write: 2}}
	}
	md := func(child string) json.RawMessage { return json.RawMessage(`{"sessionId":"` + child + `"}`) }
	history := map[string][]wire.MessageWithParts{
		"ses_root": {
			{Info: wire.Message{ID: "msg_r0", Role: "user", Agent: "build", Time: wire.MessageTime{Created: t0 + 10}}},
			{Info: wire.Message{ID: "msg_r1", Role: "assistant", Agent: "build", ProviderID: "anthropic", ModelID: "claude",
				Tokens: tok(1000, 100, 50), Cost: 0.25, Finish: "tool-calls", Time: wire.MessageTime{Created: t0 + 100, Completed: t0 + 8900}},
				Parts: []wire.Part{
					{ID: "prt_ta", MessageID: "msg_r1", Type: wire.PartTool, Tool: "task", CallID: "call_a", State: &wire.ToolState{
						Status: wire.ToolCompleted, Title: "look", Metadata: md("ses_a"), Time: wire.ToolTime{Start: t0 + 1000, End: t0 + 5000}}},
					{ID: "prt_tb", MessageID: "msg_r1", Type: wire.PartTool, Tool: "task", CallID: "call_b", State: &wire.ToolState{
						Status: wire.ToolError, Error: "Tool execution aborted", Metadata: md("ses_b"), Time: wire.ToolTime{Start: t0 + 1001, End: t0 + 8000}}},
				}},
		},
		"ses_a": {
			{Info: wire.Message{ID: "msg_a0", Role: "user", Agent: "general", Time: wire.MessageTime{Created: t0 + 1150}}},
			{Info: wire.Message{ID: "msg_a1", Role: "assistant", Agent: "general", ProviderID: "anthropic", ModelID: "claude",
				Tokens: tok(300, 30, 0), Cost: 0.05, Finish: "stop", Time: wire.MessageTime{Created: t0 + 1200, Completed: t0 + 4900}},
				Parts: []wire.Part{{ID: "prt_read", MessageID: "msg_a1", Type: wire.PartTool, Tool: "read", CallID: "call_r", State: &wire.ToolState{
					Status: wire.ToolError, Error: "File not found: /x\nmore", Time: wire.ToolTime{Start: t0 + 2000, End: t0 + 2500}}}}},
		},
		"ses_b": {
			{Info: wire.Message{ID: "msg_b0", Role: "user", Agent: "general", Time: wire.MessageTime{Created: t0 + 1250}}},
			{Info: wire.Message{ID: "msg_b1", Role: "assistant", Agent: "general", ProviderID: "mock", ModelID: "mock-1",
				Tokens: tok(200, 20, 0), Error: &wire.ErrorInfo{Name: "MessageAbortedError"}, Time: wire.MessageTime{Created: t0 + 1300}},
				Parts: []wire.Part{{ID: "prt_bash", MessageID: "msg_b1", Type: wire.PartTool, Tool: "bash", CallID: "call_s", State: &wire.ToolState{
					Status: wire.ToolRunning, Time: wire.ToolTime{Start: t0 + 1400}}}}},
		},
	}
	st := model.New()
	st.ApplySnapshot(model.Snapshot{Sessions: sessions, Status: map[string]wire.SessionStatus{}, Complete: true})
	st.ApplyMessages(history)
	return TreeOf(st, history, "ses_root")
}

func attrs(s tracetest.SpanStub) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes {
		m[kv.Key] = kv.Value
	}
	return m
}

// TestSpansOfAFanOut: the tree is root → chat → task call → child →
// chat → tool call; ids come from the server's ids; times are the
// server's; attributes follow the conventions; what ended badly says so.
func TestSpansOfAFanOut(t *testing.T) {
	tree := fanOutTree(t)
	spans, sum := Spans(tree, nil, instrumentation.Scope{Name: ScopeName})
	byName, byID := index(t, spans)
	if sum.Spans != 10 || len(spans) != 10 || sum.Sessions != 3 || sum.Replies != 3 || sum.Unpriced != 1 {
		t.Fatalf("summary %+v with %d spans; want 3 sessions, 3 replies (1 unpriced), 3 chats, 4 tool calls", sum, len(spans))
	}
	parentName := func(s tracetest.SpanStub) string {
		if !s.Parent.IsValid() {
			return ""
		}
		return byID[s.Parent.SpanID()].Name
	}
	for name, want := range map[string]string{
		"invoke_agent build ses_root": "",
		"chat claude":                 "invoke_agent general", // the last chat claude is ses_a's
		"execute_tool task call_a":    "chat claude",
		"invoke_agent general ses_a":  "execute_tool task",
		"invoke_agent general ses_b":  "execute_tool task",
		"execute_tool read call_r":    "chat claude",
		"execute_tool bash call_s":    "chat mock-1",
		"chat mock-1":                 "invoke_agent general",
	} {
		s, ok := byName[name]
		if !ok {
			t.Fatalf("no span %q among %v", name, keys(byName))
		}
		if got := parentName(s); got != want {
			t.Errorf("%s: parent %q, want %q", name, got, want)
		}
	}
	for child, call := range map[string]string{"ses_a": "prt_ta", "ses_b": "prt_tb"} {
		if got := byName["invoke_agent general "+child].Parent.SpanID(); got != SpanIDFor(KindPart, call) {
			t.Errorf("%s hangs off %s, not its own task call %s", child, got, call)
		}
	}
	root := byName["invoke_agent build ses_root"]
	a := attrs(root)
	checkAttr(t, "root", a, map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "build",
		"gen_ai.conversation.id": "ses_root", "gen_ai.provider.name": "anthropic", "gen_ai.request.model": "claude",
		"gen_ai.usage.input_tokens": int64(1052), "gen_ai.usage.output_tokens": int64(105),
		"gen_ai.usage.cache_read.input_tokens": int64(50), "opencode.cost_usd": 0.25, "opencode.subtree.cost_usd": 0.3,
		"opencode.state": "complete", "opencode.session.title": "fix the bug"})
	// Its run: from its prompt to its last reply's end.
	if root.StartTime.UnixMilli() != t0+10 || root.EndTime.UnixMilli() != t0+8900 || root.Status.Code != codes.Unset {
		t.Errorf("root: %v–%v status %v", root.StartTime, root.EndTime, root.Status)
	}
	b := byName["invoke_agent general ses_b"]
	// Aborted is stopped by someone, not a failure: no error status.
	checkAttr(t, "aborted child", attrs(b), map[string]any{"opencode.state": "aborted"})
	if _, ok := attrs(b)["error.type"]; ok || b.Status.Code != codes.Unset {
		t.Errorf("aborted child: status %+v, error.type %v; want neither", b.Status, attrs(b)["error.type"])
	}
	chatB := attrs(byName["chat mock-1"])
	if _, ok := chatB["opencode.cost_usd"]; ok {
		t.Errorf("an unpriced reply got a cost: %v", chatB["opencode.cost_usd"].String())
	}
	checkAttr(t, "unpriced chat", chatB, map[string]any{"opencode.cost.unpriced_replies": int64(1), "error.type": "MessageAbortedError"})
	read := byName["execute_tool read call_r"]
	checkAttr(t, "read", attrs(read), map[string]any{"gen_ai.tool.name": "read", "error.type": "tool_error", "opencode.tool.status": "error"})
	if read.Status.Code != codes.Error || read.Status.Description != "File not found: /x more" ||
		read.StartTime.UnixMilli() != t0+2000 || read.EndTime.UnixMilli() != t0+2500 {
		t.Errorf("read: status %+v, %v–%v", read.Status, read.StartTime, read.EndTime)
	}
	bash := byName["execute_tool bash call_s"]
	// Left running by the abort that ended its session: cut by it, no error.
	checkAttr(t, "left running", attrs(bash), map[string]any{"opencode.tool.status": "aborted"})
	if bash.Status.Code != codes.Unset {
		t.Errorf("a call the abort cut has error status %+v", bash.Status)
	}
	// The task call its child's abort cut is aborted: no error status.
	cut := byName["execute_tool task call_b"]
	checkAttr(t, "cut task call", attrs(cut), map[string]any{"opencode.tool.status": "aborted"})
	if _, ok := attrs(cut)["error.type"]; ok || cut.Status.Code != codes.Unset {
		t.Errorf("cut task call: status %+v; an aborted call is no error", cut.Status)
	}
	chatRoot := attrs(byName["execute_tool task call_a"])
	checkAttr(t, "task call", chatRoot, map[string]any{"gen_ai.tool.call.id": "call_a", "gen_ai.tool.type": "function"})

	again, _ := Spans(fanOutTree(t), nil, instrumentation.Scope{Name: ScopeName})
	for i := range spans {
		if !again[i].SpanContext.Equal(spans[i].SpanContext) || !again[i].Parent.Equal(spans[i].Parent) {
			t.Fatalf("span %d: ids differ between two exports of the same tree", i)
		}
	}
}

// index finds spans by id, and by name plus the session or call id they
// stand for (a chat span by its name alone: the last one wins).
func index(t *testing.T, spans []tracetest.SpanStub) (byName map[string]tracetest.SpanStub, byID map[trace.SpanID]tracetest.SpanStub) {
	byName, byID = map[string]tracetest.SpanStub{}, map[trace.SpanID]tracetest.SpanStub{}
	for _, s := range spans {
		byID[s.SpanContext.SpanID()] = s
		key := s.Name
		if v, ok := attrs(s)["gen_ai.agent.id"]; ok {
			key += " " + v.AsString()
		}
		if v, ok := attrs(s)["gen_ai.tool.call.id"]; ok {
			key += " " + v.AsString()
		}
		byName[key] = s
		if s.SpanContext.TraceID() != TraceIDFor("ses_root") {
			t.Errorf("%s: trace %s", s.Name, s.SpanContext.TraceID())
		}
	}
	return byName, byID
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func checkAttr(t *testing.T, what string, got map[attribute.Key]attribute.Value, want map[string]any) {
	t.Helper()
	for k, w := range want {
		v, ok := got[attribute.Key(k)]
		if !ok {
			t.Errorf("%s: no %s", what, k)
			continue
		}
		if f, isF := w.(float64); isF {
			if d := v.AsFloat64() - f; d > 1e-9 || d < -1e-9 {
				t.Errorf("%s: %s = %v, want %v", what, k, v.String(), w)
			}
			continue
		}
		if v.AsInterface() != w {
			t.Errorf("%s: %s = %v (%T), want %v", what, k, v.AsInterface(), v.AsInterface(), w)
		}
	}
}

// TestExportSaysWhyItFailed: a backend that is not there is an error
// naming the endpoint, at once (a refused connection is not retried).
func TestExportSaysWhyItFailed(t *testing.T) {
	t.Setenv(EnvEndpoint, "")
	e, err := New(context.Background(), Config{URL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = e.Shutdown(context.Background()) }()
	_, err = e.Export(context.Background(), fanOutTree(t))
	if err == nil || !strings.Contains(err.Error(), "http://127.0.0.1:1/v1/traces") || !strings.Contains(err.Error(), "ses_root") {
		t.Fatalf("export to a closed port: %v", err)
	}
}

// TestErrorTypeIsNeverEmpty: a reply whose error has no name (the server
// sent only a message) still gives its session and chat spans an
// error.type, as the conventions require of a failed operation.
func TestErrorTypeIsNeverEmpty(t *testing.T) {
	sessions := []wire.Session{{ID: "ses_f", Title: "f", Time: wire.SessionTime{Created: t0}}}
	history := map[string][]wire.MessageWithParts{"ses_f": {
		{Info: wire.Message{ID: "msg_f0", Role: "user", Agent: "build", Time: wire.MessageTime{Created: t0 + 1}}},
		{Info: wire.Message{ID: "msg_f1", Role: "assistant", Agent: "build", ModelID: "m", Error: &wire.ErrorInfo{Data: wire.ErrorInfoData{Message: "boom"}},
			Time: wire.MessageTime{Created: t0 + 2, Completed: t0 + 3}}},
	}}
	st := model.New()
	st.ApplySnapshot(model.Snapshot{Sessions: sessions, Status: map[string]wire.SessionStatus{}, Complete: true})
	st.ApplyMessages(history)
	if k := model.StateOf(st.Session("ses_f")).Kind; k != model.KindFailed {
		t.Fatalf("the session is %v, want failed: the test proves nothing", k)
	}
	spans, _ := Spans(TreeOf(st, history, "ses_f"), nil, instrumentation.Scope{Name: ScopeName})
	for _, s := range spans {
		v, ok := attrs(s)["error.type"]
		if !ok || v.AsString() == "" {
			t.Errorf("%s: error.type %q (set: %v), want a word", s.Name, v.AsString(), ok)
		}
		if s.Status.Code != codes.Error {
			t.Errorf("%s: status %+v, want an error", s.Name, s.Status)
		}
	}
}
