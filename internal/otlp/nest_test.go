package otlp

import (
	"encoding/json"
	"testing"

	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// The hard cases of issue 28, each a tree built as the server stores it:
// the spans must nest (a child's run inside its task call, that inside
// its parent's run) and have no idle time in them.

// hist builds a session's history in a few words.
type hist struct {
	id   string
	msgs []wire.MessageWithParts
}

func (h *hist) user(id string, at int64) *hist {
	h.msgs = append(h.msgs, wire.MessageWithParts{Info: wire.Message{ID: id, SessionID: h.id, Role: "user", Agent: "build",
		Time: wire.MessageTime{Created: t0 + at}}})
	return h
}

// reply adds an assistant reply created at and completed at done (0: never).
func (h *hist) reply(id string, at, done int64, parts ...wire.Part) *hist {
	for i := range parts {
		parts[i].MessageID, parts[i].SessionID = id, h.id
	}
	h.msgs = append(h.msgs, wire.MessageWithParts{Info: wire.Message{ID: id, SessionID: h.id, Role: "assistant", Agent: "build",
		ModelID: "m", Time: wire.MessageTime{Created: t0 + at, Completed: ms(done)}}, Parts: parts})
	return h
}

// ms is t0+at, or 0 for 0.
func ms(at int64) int64 {
	if at == 0 {
		return 0
	}
	return t0 + at
}

// call is a tool part: status, start and end (0: none), and metadata.
func call(id, tool, status string, start, end int64, md string) wire.Part {
	in := `{"command":"sleep 5"}`
	if tool == "task" {
		in = `{"description":"worker 1","prompt":"LEAF","subagent_type":"general"}`
	}
	st := &wire.ToolState{Status: status, Input: json.RawMessage(in), Time: wire.ToolTime{Start: ms(start), End: ms(end)}}
	if md != "" {
		st.Metadata = json.RawMessage(md)
	}
	if status == wire.ToolError {
		st.Error = "Task cancelled"
	}
	return wire.Part{ID: id, Type: wire.PartTool, Tool: tool, CallID: "call_" + id, State: st}
}

// treeOf folds the histories into a model (every session idle, unless
// busy) and reads the tree of the first.
func treeOf(t *testing.T, busy []string, hs ...*hist) Tree {
	t.Helper()
	var sessions []wire.Session
	history := map[string][]wire.MessageWithParts{}
	status := map[string]wire.SessionStatus{}
	for i, h := range hs {
		s := wire.Session{ID: h.id, Title: h.id, Time: wire.SessionTime{Created: h.msgs[0].Info.Time.Created}}
		if i > 0 {
			s.ParentID = hs[0].id
		}
		sessions = append(sessions, s)
		history[h.id] = h.msgs
	}
	for _, id := range busy {
		status[id] = wire.SessionStatus{Type: wire.StatusBusy}
	}
	st := model.New()
	st.ApplySnapshot(model.Snapshot{Sessions: sessions, Status: status, Complete: true})
	st.ApplyMessages(history)
	return TreeOf(st, history, hs[0].id)
}

// nestCheck checks that every span lies within its parent (a reply's
// span lasts as long as its calls: a background call outlives the reply
// the server wrote), and returns the spans by id.
func nestCheck(t *testing.T, spans []tracetest.SpanStub) map[trace.SpanID]tracetest.SpanStub {
	t.Helper()
	byID := map[trace.SpanID]tracetest.SpanStub{}
	for _, s := range spans {
		byID[s.SpanContext.SpanID()] = s
	}
	for _, s := range spans {
		p, ok := byID[s.Parent.SpanID()]
		if !s.Parent.IsValid() {
			continue
		}
		if !ok {
			t.Errorf("%s: its parent %s is not in the trace", s.Name, s.Parent.SpanID())
			continue
		}
		if s.StartTime.Before(p.StartTime) || s.EndTime.After(p.EndTime) {
			t.Errorf("%s (%d–%d) is not within %s (%d–%d)", s.Name, s.StartTime.UnixMilli()-t0, s.EndTime.UnixMilli()-t0,
				p.Name, p.StartTime.UnixMilli()-t0, p.EndTime.UnixMilli()-t0)
		}
	}
	return byID
}

func spansOf(tree Tree) []tracetest.SpanStub {
	spans, _ := Spans(tree, nil, instrumentation.Scope{Name: ScopeName})
	return spans
}

// span is a span by id, or a test failure.
func span(t *testing.T, byID map[trace.SpanID]tracetest.SpanStub, id trace.SpanID, what string) tracetest.SpanStub {
	t.Helper()
	s, ok := byID[id]
	if !ok {
		t.Fatalf("no span for %s", what)
	}
	return s
}

func lasts(s tracetest.SpanStub) (int64, int64) {
	return s.StartTime.UnixMilli() - t0, s.EndTime.UnixMilli() - t0
}

// TestSpansOfACrash: a root cut off by a server crash while its task call
// waited (no reply completed, the call left running), whose child ran 7 s
// and was cut off too: the root's run lasts until its child's did, and
// the call with it.
func TestSpansOfACrash(t *testing.T) {
	root := (&hist{id: "ses_r"}).user("msg_r0", 0).
		reply("msg_r1", 100, 0, call("prt_t", "task", wire.ToolRunning, 200, 0, `{"sessionId":"ses_k"}`))
	kid := (&hist{id: "ses_k"}).user("msg_k0", 240).
		reply("msg_k1", 300, 0, call("prt_b", "bash", wire.ToolRunning, 7_000, 0, ""))
	byID := nestCheck(t, spansOf(treeOf(t, nil, root, kid)))
	if s, e := lasts(span(t, byID, RunSpanID("ses_r", 0), "the root's run")); s != 0 || e != 7_000 {
		t.Errorf("the root's run lasts %d–%d, want 0–7000", s, e)
	}
	if s, e := lasts(span(t, byID, SpanIDFor(KindPart, "prt_t"), "the task call")); s != 200 || e != 7_000 {
		t.Errorf("the task call lasts %d–%d, want 200–7000", s, e)
	}
	if k := span(t, byID, RunSpanID("ses_k", 0), "the child's run"); k.Parent.SpanID() != SpanIDFor(KindPart, "prt_t") {
		t.Errorf("the child's run hangs off %s, not its task call", k.Parent.SpanID())
	}
}

// TestSpansOfAResumedChild: a child resumed by hand long after its
// parent ended ran twice: two runs, no span over the idle time between;
// the second hangs nowhere and links to the first.
func TestSpansOfAResumedChild(t *testing.T) {
	root := (&hist{id: "ses_r"}).user("msg_r0", 0).
		reply("msg_r1", 100, 5_000, call("prt_t", "task", wire.ToolCompleted, 200, 4_900, `{"sessionId":"ses_k"}`))
	kid := (&hist{id: "ses_k"}).user("msg_k0", 300).reply("msg_k1", 400, 4_800).
		user("msg_k2", 100_000).reply("msg_k3", 100_100, 103_000)
	spans := spansOf(treeOf(t, nil, root, kid))
	byID := nestCheck(t, spans)
	first, second := span(t, byID, RunSpanID("ses_k", 0), "the first run"), span(t, byID, RunSpanID("ses_k", 1), "the second run")
	if s, e := lasts(first); s != 300 || e != 4_800 || first.Parent.SpanID() != SpanIDFor(KindPart, "prt_t") {
		t.Errorf("the first run: %d–%d under %s, want 300–4800 under the task call", s, e, first.Parent.SpanID())
	}
	if s, e := lasts(second); s != 100_000 || e != 103_000 || second.Parent.IsValid() {
		t.Errorf("the second run: %d–%d under %v, want 100000–103000 with no parent", s, e, second.Parent.SpanID())
	}
	if len(second.Links) != 1 || second.Links[0].SpanContext.SpanID() != first.SpanContext.SpanID() {
		t.Errorf("the second run links to %v, want the first", second.Links)
	}
	if chat := span(t, byID, SpanIDFor(KindMessage, "msg_k3"), "the resume's reply"); chat.Parent.SpanID() != second.SpanContext.SpanID() {
		t.Errorf("the resume's reply hangs off %s, not the second run", chat.Parent.SpanID())
	}
	for _, s := range spans {
		if a := attrs(s)["gen_ai.agent.id"]; a.AsString() == "ses_k" {
			if st, e := lasts(s); st < 4_800 && e > 100_000 {
				t.Errorf("%s spans the idle time %d–%d", s.Name, st, e)
			}
		}
	}
}

// TestSpansOfABackgroundChild: a background task call completes at once
// on the server; its span lasts until its child ended, and the root's
// run (which answered the child's end notice) holds it.
func TestSpansOfABackgroundChild(t *testing.T) {
	notice := wire.Part{ID: "prt_n", SessionID: "ses_r", MessageID: "msg_r3", Type: wire.PartText, Synthetic: true,
		Text: "<task id=\"ses_k\" state=\"completed\">\n<summary>Background task completed: worker 1</summary>\n</task>"}
	root := (&hist{id: "ses_r"}).user("msg_r0", 0).
		reply("msg_r1", 100, 300, call("prt_t", "task", wire.ToolCompleted, 200, 250, `{"sessionId":"ses_k","background":true}`)).
		reply("msg_r2", 300, 500).user("msg_r3", 9_010)
	root.msgs[len(root.msgs)-1].Parts = []wire.Part{notice}
	root.reply("msg_r4", 9_020, 9_400)
	kid := (&hist{id: "ses_k"}).user("msg_k0", 260).reply("msg_k1", 300, 9_000)
	byID := nestCheck(t, spansOf(treeOf(t, nil, root, kid)))
	if s, e := lasts(span(t, byID, SpanIDFor(KindPart, "prt_t"), "the background call")); s != 200 || e != 9_000 {
		t.Errorf("the background call lasts %d–%d, want 200–9000: until its child ended", s, e)
	}
	if s, e := lasts(span(t, byID, RunSpanID("ses_r", 0), "the root's run")); s != 0 || e != 9_400 {
		t.Errorf("the root's run lasts %d–%d, want 0–9400: one run, the notice's answer in it", s, e)
	}
	if _, ok := byID[RunSpanID("ses_r", 1)]; ok {
		t.Errorf("the end notice started a second run")
	}
}

// TestSpansOfAnAbortedChild: the server closes the parent's task call a
// moment before its aborted child's reply ends; the call lasts until the
// child's run ended, and a failed call keeps its title.
func TestSpansOfAnAbortedChild(t *testing.T) {
	root := (&hist{id: "ses_r"}).user("msg_r0", 0).
		reply("msg_r1", 100, 5_000, call("prt_t", "task", wire.ToolError, 200, 4_000, `{"sessionId":"ses_k"}`))
	kid := (&hist{id: "ses_k"}).user("msg_k0", 300).reply("msg_k1", 400, 4_040)
	kid.msgs[1].Info.Error = &wire.ErrorInfo{Name: "MessageAbortedError"}
	byID := nestCheck(t, spansOf(treeOf(t, nil, root, kid)))
	c := span(t, byID, SpanIDFor(KindPart, "prt_t"), "the task call")
	if s, e := lasts(c); s != 200 || e != 4_040 {
		t.Errorf("the task call lasts %d–%d, want 200–4040: until its child's run ended", s, e)
	}
	if title := attrs(c)[AttrToolTitle]; title.AsString() != "worker 1" {
		t.Errorf("the failed task call's title is %q, want its description", title.AsString())
	}
}

// TestSpansOfA11TaskCall: 1.1.65 starts a task call's clock after it made
// the child (its prompt 300 ms before): the child still hangs off its
// call, which begins with the child's run.
func TestSpansOfA11TaskCall(t *testing.T) {
	root := (&hist{id: "ses_r"}).user("msg_r0", 0).
		reply("msg_r1", 100, 5_000, call("prt_t", "task", wire.ToolCompleted, 800, 4_900, `{"sessionId":"ses_k"}`))
	kid := (&hist{id: "ses_k"}).user("msg_k0", 500).reply("msg_k1", 600, 4_800)
	byID := nestCheck(t, spansOf(treeOf(t, nil, root, kid)))
	if k := span(t, byID, RunSpanID("ses_k", 0), "the child's run"); k.Parent.SpanID() != SpanIDFor(KindPart, "prt_t") {
		t.Errorf("the child's run hangs off %s, not its task call", k.Parent.SpanID())
	}
	if s, e := lasts(span(t, byID, SpanIDFor(KindPart, "prt_t"), "the task call")); s != 500 || e != 4_900 {
		t.Errorf("the task call lasts %d–%d, want 500–4900", s, e)
	}
}
