package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/otlp"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// spansSays is what the trace `octop export` sends says of each session:
// the spans of otlp.Spans over the root's tree as export reads it
// (live.LoadTrees), with no collector.
func spansSays(t *testing.T, f factsRecording) []statement {
	srv := f.serve(t, f.end)
	c, err := client.New(client.Options{BaseURL: srv.URL(), Timeout: testwait.Scale(10 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	root := byTitle(t, f.end, tRoot).ID
	st, history, _, err := live.LoadTrees(context.Background(), c, []string{root})
	if err != nil {
		t.Fatal(err)
	}
	spans, _ := otlp.Spans(otlp.TreeOf(st, history, root), nil, instrumentation.Scope{Name: otlp.ScopeName})
	byID := map[trace.SpanID]*tracetest.SpanStub{}
	for i := range spans {
		byID[spans[i].SpanContext.SpanID()] = &spans[i]
	}
	var said []statement
	for _, s := range f.end.Sessions {
		said = append(said, sessionSpansSay(s.ID, spans, byID)...)
	}
	return said
}

// sessionOf is the session a span belongs to: its conversation, or its
// parent's for a tool call.
func sessionOf(sp *tracetest.SpanStub, byID map[trace.SpanID]*tracetest.SpanStub) string {
	for sp != nil {
		if v, ok := attr(sp, semconv.GenAIConversationIDKey); ok {
			return v.AsString()
		}
		sp = byID[sp.Parent.SpanID()]
	}
	return ""
}

func attr(sp *tracetest.SpanStub, k attribute.Key) (attribute.Value, bool) {
	for _, kv := range sp.Attributes {
		if kv.Key == k {
			return kv.Value, true
		}
	}
	return attribute.Value{}, false
}

func sessionSpansSay(id string, spans []tracetest.SpanStub, byID map[trace.SpanID]*tracetest.SpanStub) []statement {
	var runs []*tracetest.SpanStub
	calls := map[string]int{}
	nests := "yes"
	for i := range spans {
		sp := &spans[i]
		if sessionOf(sp, byID) != id {
			continue
		}
		if strings.HasPrefix(sp.Name, "invoke_agent") {
			if _, ok := attr(sp, semconv.GenAIConversationIDKey); ok {
				runs = append(runs, sp)
			}
		}
		if strings.HasPrefix(sp.Name, "execute_tool") {
			v, _ := attr(sp, otlp.AttrToolStatus)
			calls[v.AsString()]++
		}
		if out := outside(sp, byID); out != "" && nests == "yes" {
			nests = "no: " + out
		}
	}
	if len(runs) == 0 {
		return nil
	}
	slices.SortFunc(runs, func(a, b *tracetest.SpanStub) int { return a.StartTime.Compare(b.StartTime) })
	said := []statement{says(id, factCalls, word(callWords(calls))), says(id, factNests, word(nests))}
	var ws []window
	var sum int64
	for _, r := range runs {
		ws = append(ws, exact(float64(r.StartTime.UnixMilli())), exact(float64(r.EndTime.UnixMilli())))
		sum += r.EndTime.Sub(r.StartTime).Milliseconds()
	}
	said = append(said, says(id, factRuns, numbers(ws...)), says(id, factStarted, numbers(ws[0])),
		says(id, factEnded, numbers(ws[len(ws)-1])), says(id, factDuration, numbers(exact(float64(sum)))))
	return append(said, runSays(id, runs)...)
}

// runSays is what a session's invoke_agent spans say: its state, whether
// it is bad (error status) and why, from the last run's; its cost, the
// sum of each run's own replies'.
func runSays(id string, runs []*tracetest.SpanStub) []statement {
	var said []statement
	sp := runs[len(runs)-1]
	if v, ok := attr(sp, otlp.AttrState); ok {
		said = append(said, says(id, factState, word(v.AsString())))
	}
	bad := "fine"
	if sp.Status.Code == codes.Error {
		bad = "bad"
		said = append(said, says(id, factDetail, word(sp.Status.Description)))
	}
	said = append(said, says(id, factBad, word(bad)))
	var usd float64
	priced, n := false, 0
	for _, r := range runs {
		if v, ok := attr(r, otlp.AttrCost); ok {
			usd, priced = usd+v.AsFloat64(), true
		}
		if v, ok := attr(r, otlp.AttrUnpriced); ok {
			n += int(v.AsInt64())
		}
	}
	said = append(said, says(id, factUnpriced, word(fmt.Sprint(n))))
	if priced {
		said = append(said, says(id, factSpent, numbers(exact(usd))), says(id, factCost, word(costWord(n, false))))
	} else {
		said = append(said, says(id, factSpent, word("n/a")), says(id, factCost, word("unpriced")))
	}
	if v, ok := attr(sp, otlp.AttrSubtreeCost); ok {
		said = append(said, says(id, factSubtreeSpent, numbers(exact(v.AsFloat64()))))
	} else {
		said = append(said, says(id, factSubtreeSpent, word("n/a")))
	}
	return said
}

// outside names the first ancestor of sp whose time does not hold sp's,
// or is "".
func outside(sp *tracetest.SpanStub, byID map[trace.SpanID]*tracetest.SpanStub) string {
	for p := byID[sp.Parent.SpanID()]; p != nil; p = byID[p.Parent.SpanID()] {
		if sp.StartTime.Before(p.StartTime) || sp.EndTime.After(p.EndTime) {
			return fmt.Sprintf("%s %s lies outside %s %s", sp.Name, spanTimes(sp), p.Name, spanTimes(p))
		}
	}
	return ""
}

func spanTimes(sp *tracetest.SpanStub) string {
	return fmt.Sprintf("[%d, %d]", sp.StartTime.UnixMilli(), sp.EndTime.UnixMilli())
}
