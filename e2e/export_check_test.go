package e2e

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/otlp"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/wire"
)

// traceCheck checks a trace read from Jaeger against the server's REST.
type traceCheck struct {
	t    *testing.T
	rt   exportTree
	byID map[string]harness.JaegerSpan
	// priced counts the replies with a cost: the price config must work,
	// or the cost checks prove nothing.
	priced int
}

// checkTrace checks every span the tree makes: where it hangs, its
// name, attributes, token counts, cost and times.
func checkTrace(t *testing.T, tr harness.JaegerTrace, rt exportTree, version string) {
	t.Helper()
	c := &traceCheck{t: t, rt: rt, byID: map[string]harness.JaegerSpan{}}
	for _, s := range tr.Spans {
		c.byID[s.SpanID] = s
	}
	for _, p := range tr.Processes {
		if p.ServiceName != "opencode" || !hasTag(p.Tags, "service.version", version) {
			t.Errorf("process %+v: want service opencode, version %s", p, version)
		}
	}
	for id := range rt.sessions {
		c.session(id)
	}
	if c.priced == 0 {
		t.Errorf("no reply has a cost: the model's price did not reach the server")
	}
}

func hasTag(tags []harness.JaegerTag, key string, want any) bool {
	for _, tg := range tags {
		if tg.Key == key {
			return fmt.Sprint(tg.Value) == fmt.Sprint(want)
		}
	}
	return false
}

// span is the span of a session, message or part, by its derived id.
func (c *traceCheck) span(kind, id string) harness.JaegerSpan {
	c.t.Helper()
	s, ok := c.byID[otlp.SpanIDFor(kind, id).String()]
	if !ok {
		c.t.Fatalf("no span for %s %s", kind, id)
	}
	return s
}

// tags checks a span's attributes.
func (c *traceCheck) tags(s harness.JaegerSpan, want map[string]any) {
	c.t.Helper()
	for k, w := range want {
		got, ok := s.Tag(k)
		if f, isF := w.(float64); isF && ok {
			if g, _ := got.(float64); math.Abs(g-f) > 1e-9 {
				c.t.Errorf("%s %s: %s = %v, want %v", s.OperationName, s.SpanID, k, got, w)
			}
			continue
		}
		if !ok || fmt.Sprint(got) != fmt.Sprint(w) {
			c.t.Errorf("%s %s: %s = %v (set: %v), want %v", s.OperationName, s.SpanID, k, got, ok, w)
		}
	}
}

// times checks a span starts and lasts as the server says, to a second.
func (c *traceCheck) times(s harness.JaegerSpan, start, end int64) {
	c.t.Helper()
	if !nearMS(s.StartTime, start) || !nearMS(s.Duration, end-start) {
		c.t.Errorf("%s %s: starts %d µs and lasts %d µs; the server says %d ms and %d ms",
			s.OperationName, s.SpanID, s.StartTime, s.Duration, start, end-start)
	}
}

// session checks a session's span (its one run), where it hangs, and its
// replies'.
func (c *traceCheck) session(id string) {
	ses := c.rt.sessions[id]
	s := c.span(otlp.KindSession, id)
	if id == c.rt.root && s.Parent() != "" {
		c.t.Errorf("the root's span has a parent %s", s.Parent())
	}
	if id != c.rt.root {
		c.childOfTaskCall(s, ses)
	}
	agent, _ := s.Tag("gen_ai.agent.name")
	wantAgent := map[bool]string{true: "build", false: "general"}[id == c.rt.root]
	if s.OperationName != "invoke_agent "+wantAgent || agent != wantAgent {
		c.t.Errorf("session %s: span %q, agent %v; want invoke_agent %s", id, s.OperationName, agent, wantAgent)
	}
	var in, out, cacheRead float64
	start, end := ses.Time.Created, ses.Time.Created
	if msgs := c.rt.msgs[id]; len(msgs) > 0 {
		start = msgs[0].Info.Time.Created // its run, from its prompt
	}
	for _, m := range c.rt.msgs[id] {
		end = max(end, m.Info.Time.Completed)
		if m.Info.Role != "assistant" {
			continue
		}
		tk := m.Info.Tokens
		in += tk.Input + tk.Cache.Read + tk.Cache.Write
		out += tk.Output + tk.Reasoning
		cacheRead += tk.Cache.Read
		c.reply(s, m)
	}
	c.tags(s, map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.id": id,
		"gen_ai.conversation.id": id, "gen_ai.provider.name": "mock", "gen_ai.request.model": "mock-1",
		"gen_ai.usage.input_tokens": in, "gen_ai.usage.output_tokens": out,
		"gen_ai.usage.cache_read.input_tokens": cacheRead, "opencode.state": "complete"})
	if in == 0 {
		c.t.Errorf("session %s: the server counts no input tokens; the test proves nothing", id)
	}
	c.times(s, start, end)
}

// childOfTaskCall checks a child's span hangs off its parent's task call,
// which hangs off the reply that made it, which hangs off the parent.
func (c *traceCheck) childOfTaskCall(s harness.JaegerSpan, ses wire.Session) {
	call, ok := c.byID[s.Parent()]
	if !ok || call.OperationName != "execute_tool task" {
		c.t.Errorf("child %s hangs off %q, want its parent's task call", ses.ID, call.OperationName)
		return
	}
	for _, m := range c.rt.msgs[ses.ParentID] {
		for _, p := range m.Parts {
			if otlp.SpanIDFor(otlp.KindPart, p.ID).String() != call.SpanID {
				continue
			}
			reply := c.span(otlp.KindMessage, m.Info.ID)
			if call.Parent() != reply.SpanID || reply.Parent() != c.span(otlp.KindSession, ses.ParentID).SpanID {
				c.t.Errorf("child %s: its task call does not hang off the reply that made it, in the parent", ses.ID)
			}
			return
		}
	}
	c.t.Errorf("child %s hangs off a task call its parent does not have", ses.ID)
}

// reply checks a reply's chat span and its tool calls' spans.
func (c *traceCheck) reply(session harness.JaegerSpan, m wire.MessageWithParts) {
	s := c.span(otlp.KindMessage, m.Info.ID)
	tk := m.Info.Tokens
	if s.Parent() != session.SpanID || s.OperationName != "chat mock-1" {
		c.t.Errorf("reply %s: %q under %s, want chat mock-1 under its session", m.Info.ID, s.OperationName, s.Parent())
	}
	want := map[string]any{"gen_ai.operation.name": "chat", "gen_ai.provider.name": "mock",
		"gen_ai.usage.input_tokens":  tk.Input + tk.Cache.Read + tk.Cache.Write,
		"gen_ai.usage.output_tokens": tk.Output + tk.Reasoning, "gen_ai.usage.reasoning.output_tokens": tk.Reasoning,
		"gen_ai.response.finish_reasons": `["` + m.Info.Finish + `"]`}
	if m.Info.Cost > 0 {
		want["opencode.cost_usd"] = m.Info.Cost
		c.priced++
	} else if _, ok := s.Tag("opencode.cost_usd"); ok && tk.Sum() > 0 {
		c.t.Errorf("reply %s: the server reported no cost, the span has one", m.Info.ID)
	}
	c.tags(s, want)
	c.times(s, m.Info.Time.Created, m.Info.Time.Completed)
	for _, p := range m.Parts {
		if p.Type != wire.PartTool {
			continue
		}
		ts := c.span(otlp.KindPart, p.ID)
		if ts.Parent() != s.SpanID || ts.OperationName != "execute_tool "+p.Tool {
			c.t.Errorf("call %s: %q under %s, want execute_tool %s under its reply", p.ID, ts.OperationName, ts.Parent(), p.Tool)
		}
		tw := map[string]any{"gen_ai.tool.name": p.Tool, "gen_ai.tool.call.id": p.CallID, "opencode.tool.status": p.State.Status}
		if p.State.Status == wire.ToolError {
			tw["error"], tw["error.type"], tw["otel.status_code"] = true, "tool_error", "ERROR"
			d, _ := ts.Tag("otel.status_description")
			if want := strings.Join(strings.Fields(p.State.Error), " "); want == "" || fmt.Sprint(d) != want {
				c.t.Errorf("call %s failed with %q; the span says %v", p.ID, p.State.Error, d)
			}
		} else if _, ok := ts.Tag("error"); ok {
			c.t.Errorf("call %s (%s) is marked an error", p.ID, p.State.Status)
		}
		c.tags(ts, tw)
		c.times(ts, p.State.Time.Start, p.State.Time.End)
	}
}
