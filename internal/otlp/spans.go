// Package otlp sends a fan-out to a tracing backend as an OpenTelemetry
// trace over OTLP/HTTP (protobuf), in the GenAI semantic conventions:
//
//	invoke_agent {agent}           one per run of a session (the root's first has no parent)
//	  chat {model}                 one per assistant reply
//	    execute_tool {tool}        one per tool call of that reply
//	      invoke_agent {agent}     a task call's child session's run
//	        chat {model} …
//
// Span and trace ids are hashes of the server's session, message and part
// ids (a later run's, of its session's id and its index), and times are
// the model's, from the server's own timestamps (runs.go says how runs
// and calls nest), so exporting the same finished root twice sends the
// same trace. Spans maps a Tree to spans
// with no I/O; Exporter sends them with the OpenTelemetry SDK's OTLP
// exporter (endpoint.go says where).
package otlp

import (
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/octop-dev/octop/internal/usage"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// octop's own attributes: the conventions have no cost, state or title.
const (
	AttrCost         = attribute.Key("opencode.cost_usd")
	AttrSubtreeCost  = attribute.Key("opencode.subtree.cost_usd")
	AttrUnpriced     = attribute.Key("opencode.cost.unpriced_replies")
	AttrState        = attribute.Key("opencode.state")
	AttrTitle        = attribute.Key("opencode.session.title")
	AttrToolStatus   = attribute.Key("opencode.tool.status")
	AttrToolTitle    = attribute.Key("opencode.tool.title")
	maxText          = 256 // bytes of a title or an error message sent
	toolErrorType    = "tool_error"
	otherError       = "_OTHER" // the conventions' error.type when nothing names it
	toolTypeFunction = "function"
)

// Summary says what a trace holds, for the line a person reads.
type Summary struct {
	TraceID  trace.TraceID
	Spans    int
	Sessions int
	// Replies counts the assistant replies, Unpriced those that used
	// tokens with no cost reported (no opencode.cost_usd on their span).
	Replies, Unpriced int
	// Running lists the sessions still running: what goes on ends at the
	// latest time the tree's messages name.
	Running []string
}

// mapper builds one tree's spans.
type mapper struct {
	tid   trace.TraceID
	res   *resource.Resource
	scope instrumentation.Scope
	out   []tracetest.SpanStub
	sum   Summary

	byID   map[string]*Session
	runs   map[string][]model.Run // each session's runs as spans draw them
	parts  map[string]bool        // every part id in the tree: a call's span exists
	latest int64                  // where what still goes on ends
}

// Spans maps a fan-out to its spans, each carrying res and scope.
func Spans(t Tree, res *resource.Resource, scope instrumentation.Scope) ([]tracetest.SpanStub, Summary) {
	m := &mapper{tid: TraceIDFor(t.Root), res: res, scope: scope, latest: latestTime(t),
		byID: map[string]*Session{}, runs: map[string][]model.Run{}, parts: map[string]bool{}}
	m.sum.TraceID = m.tid
	for i := range t.Sessions {
		s := &t.Sessions[i]
		m.byID[s.ID], m.runs[s.ID] = s, spanRuns(s, m.latest)
		for _, msg := range s.Msgs {
			for _, p := range msg.Parts {
				m.parts[p.ID] = true
			}
		}
	}
	sub := subtreeCosts(t)
	for i := range t.Sessions {
		s := &t.Sessions[i]
		runs := m.runs[s.ID]
		for j, r := range runs {
			parent, link := m.runParent(s, j, r)
			m.run(s, j, parent, link, sub[s.ID])
		}
		if s.State.Kind.Live() {
			m.sum.Running = append(m.sum.Running, s.ID)
		}
		for j := range s.Msgs {
			if msg := &s.Msgs[j]; msg.Info.Role == "assistant" {
				m.reply(s, msg, RunSpanID(s.ID, runIndex(runs, msg.Info.Time.Created)))
			}
		}
	}
	m.sum.Spans, m.sum.Sessions = len(m.out), len(t.Sessions)
	return m.out, m.sum
}

// stub is a span of the trace with the common fields set.
func (m *mapper) stub(name string, kind trace.SpanKind, id, parent trace.SpanID, start, end int64) tracetest.SpanStub {
	s := tracetest.SpanStub{
		Name:                 name,
		SpanContext:          m.spanContext(id),
		SpanKind:             kind,
		StartTime:            time.UnixMilli(start),
		EndTime:              time.UnixMilli(max(end, start)),
		Resource:             m.res,
		InstrumentationScope: m.scope,
	}
	if parent.IsValid() {
		s.Parent = m.spanContext(parent)
	}
	return s
}

func (m *mapper) spanContext(id trace.SpanID) trace.SpanContext {
	return trace.NewSpanContext(trace.SpanContextConfig{TraceID: m.tid, SpanID: id, TraceFlags: trace.FlagsSampled})
}

// run adds the invoke_agent span of a session's run i: the usage of the
// replies it holds, and the subtree's cost; the last run carries how the
// session ended. A span with no parent links to link, when there is one.
func (m *mapper) run(s *Session, i int, parent, link trace.SpanID, subCost usage.Figures) {
	runs := m.runs[s.ID]
	var own usage.Figures
	var provider, modelID string
	for j := range s.Msgs {
		msg := &s.Msgs[j]
		if runIndex(runs, msg.Info.Time.Created) != i {
			continue
		}
		if r, ok := usage.ReplyOf(msg); ok {
			own.Add(r)
			provider, modelID = msg.Info.ProviderID, msg.Info.ModelID
		}
	}
	name := "invoke_agent"
	if s.Agent != "" {
		name += " " + s.Agent
	}
	sp := m.stub(name, trace.SpanKindInternal, RunSpanID(s.ID, i), parent, runs[i].Start, runs[i].End)
	if !parent.IsValid() && link.IsValid() {
		sp.Links = []sdktrace.Link{{SpanContext: m.spanContext(link)}}
	}
	last := i == len(runs)-1
	sp.Attributes = []attribute.KeyValue{semconv.GenAIOperationNameInvokeAgent, semconv.GenAIAgentID(s.ID),
		semconv.GenAIConversationID(s.ID)}
	if last {
		sp.Attributes = append(sp.Attributes, AttrState.String(s.State.Kind.End()))
	}
	if s.Agent != "" {
		sp.Attributes = append(sp.Attributes, semconv.GenAIAgentName(s.Agent))
	}
	if s.Title != "" {
		sp.Attributes = append(sp.Attributes, AttrTitle.String(bounded(s.Title)))
	}
	sp.Attributes = append(sp.Attributes, modelAttrs(provider, modelID)...)
	sp.Attributes = append(sp.Attributes, usageAttrs(own.Tokens)...)
	sp.Attributes = append(sp.Attributes, costAttrs(AttrCost, own)...)
	sp.Attributes = append(sp.Attributes, costAttrs(AttrSubtreeCost, subCost)...)
	if s.State.Kind.Bad() && last { // aborted is not: someone chose to stop it; how it ended is the last run's
		sp.Attributes = append(sp.Attributes, errorType(s.State.Reason, s.State.Kind.End()))
		sp.Status = sdktrace.Status{Code: codes.Error, Description: bounded(s.State.Detail)}
	}
	m.out = append(m.out, sp)
}

// reply adds an assistant message's chat span, under the span of the run
// that holds it (run), and its tool calls' spans.
func (m *mapper) reply(s *Session, msg *wire.MessageWithParts, run trace.SpanID) {
	info := &msg.Info
	r, _ := usage.ReplyOf(msg)
	var f usage.Figures
	f.Add(r)
	m.sum.Replies++
	m.sum.Unpriced += f.Unpriced
	name := "chat"
	if info.ModelID != "" {
		name += " " + info.ModelID
	}
	id := SpanIDFor(KindMessage, info.ID)
	end := info.Time.Completed
	if end == 0 {
		end = lastTime(msg)
	}
	// A reply lasts as long as its calls: a task call goes on until its
	// child's run ends, after the server wrote the reply's last time.
	for i := range msg.Parts {
		if p := &msg.Parts[i]; p.Type == wire.PartTool && p.State != nil {
			_, callEnd := m.callTimes(s, msg, p)
			end = max(end, callEnd)
		}
	}
	sp := m.stub(name, trace.SpanKindClient, id, run, info.Time.Created, end)
	sp.Attributes = append([]attribute.KeyValue{semconv.GenAIOperationNameChat, semconv.GenAIConversationID(s.ID)},
		modelAttrs(info.ProviderID, info.ModelID)...)
	sp.Attributes = append(sp.Attributes, usageAttrs(r.Tokens)...)
	sp.Attributes = append(sp.Attributes, costAttrs(AttrCost, f)...)
	if info.Finish != "" {
		sp.Attributes = append(sp.Attributes, semconv.GenAIResponseFinishReasons(info.Finish))
	}
	if info.Error != nil {
		sp.Attributes = append(sp.Attributes, errorType(info.Error.Name, otherError))
		sp.Status = sdktrace.Status{Code: codes.Error, Description: bounded(errorText(info.Error))}
	}
	m.out = append(m.out, sp)
	for i := range msg.Parts {
		if p := &msg.Parts[i]; p.Type == wire.PartTool && p.State != nil {
			m.tool(s, msg, p, id)
		}
	}
}

// tool adds a tool call's execute_tool span under its reply's span, over
// the times the model gives it (a task call lasts until its child's run
// ends, a call left open by a stopped run until that run ends), its
// status the model's (CallStatus).
func (m *mapper) tool(s *Session, msg *wire.MessageWithParts, p *wire.Part, parent trace.SpanID) {
	st := p.State
	start, end := m.callTimes(s, msg, p)
	status := model.CallStatus(st, s.State.Kind)
	sp := m.stub("execute_tool "+p.Tool, trace.SpanKindInternal, SpanIDFor(KindPart, p.ID), parent, start, end)
	sp.Attributes = []attribute.KeyValue{semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolName(p.Tool),
		semconv.GenAIToolCallID(p.CallID), semconv.GenAIToolTypeKey.String(toolTypeFunction), AttrToolStatus.String(status.String())}
	title := st.Title
	if title == "" {
		title = s.Calls[p.ID].Title // a failed call's part has none: the model kept it
	}
	if title != "" {
		sp.Attributes = append(sp.Attributes, AttrToolTitle.String(bounded(title)))
	}
	switch status { // an aborted call is no error: someone stopped it
	case model.ToolError:
		sp.Attributes = append(sp.Attributes, semconv.ErrorTypeKey.String(toolErrorType))
		sp.Status = sdktrace.Status{Code: codes.Error, Description: bounded(st.Error)}
	case model.ToolInterrupted:
		sp.Attributes = append(sp.Attributes, semconv.ErrorTypeKey.String(status.String()))
		sp.Status = sdktrace.Status{Code: codes.Error, Description: "the call was left running when the session stopped"}
	}
	m.out = append(m.out, sp)
}
