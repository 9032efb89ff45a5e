package e2e

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/otlp"
	"github.com/octop-dev/octop/internal/testkit/fakellm"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/wire"
)

// The export tests run a real fan-out on a real OpenCode server, send it
// with `octop export` (and `octop watch --otlp`) to a real Jaeger, and
// read the trace back through Jaeger's query API, checking it against
// what the server's REST API says.

// pricedServer starts a server whose mock model has a price, so the
// server reports each reply's cost.
func pricedServer(t *testing.T, v string) *harness.Server {
	t.Helper()
	harness.RequireBinary(t, v)
	fake := httptest.NewServer(fakellm.New(fakellm.Options{}))
	t.Cleanup(fake.Close)
	url := fake.URL + "/v1"
	provider := harness.Config2JSON(v, url, nil, nil)["provider"].(map[string]any)
	provider["mock"].(map[string]any)["models"] = map[string]any{"mock-1": map[string]any{
		"name": "Mock", "tool_call": true,
		"cost": map[string]any{"input": 3, "output": 15, "cache_read": 0.3, "cache_write": 3.75}}}
	return harness.Start(t, harness.Config{Version: v, FakeURL: url, Extra: map[string]any{"provider": provider}})
}

// exportTree is a root's tree as the server's REST API gives it.
type exportTree struct {
	root     string
	sessions map[string]wire.Session
	msgs     map[string][]wire.MessageWithParts
}

func readExportTree(t *testing.T, ctx context.Context, c *client.Client, root string) exportTree {
	t.Helper()
	all, err := c.Sessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rt := exportTree{root: root, sessions: map[string]wire.Session{}, msgs: map[string][]wire.MessageWithParts{}}
	in := map[string]bool{root: true}
	for changed := true; changed; {
		changed = false
		for _, s := range all {
			if !in[s.ID] && in[s.ParentID] {
				in[s.ID], changed = true, true
			}
		}
	}
	for _, s := range all {
		if in[s.ID] {
			rt.sessions[s.ID] = s
			if rt.msgs[s.ID], err = c.Messages(ctx, s.ID, 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	return rt
}

// spanCount is how many spans the tree makes: one per session, reply and
// tool call.
func (rt exportTree) spanCount() int {
	n := len(rt.sessions)
	for _, msgs := range rt.msgs {
		for _, m := range msgs {
			if m.Info.Role != "assistant" {
				continue
			}
			n++
			for _, p := range m.Parts {
				if p.Type == wire.PartTool {
					n++
				}
			}
		}
	}
	return n
}

// waitTrace reads the trace from Jaeger until it has want spans.
func waitTrace(t *testing.T, ctx context.Context, j *harness.Jaeger, root string, want int) harness.JaegerTrace {
	t.Helper()
	var tr harness.JaegerTrace
	actWaitFor(t, fmt.Sprintf("Jaeger to hold the trace of %s with %d spans", root, want), func() (bool, error) {
		var err error
		tr, err = j.Trace(ctx, otlp.TraceIDFor(root).String())
		if errors.Is(err, harness.ErrNoTrace) {
			return false, nil
		}
		return err == nil && len(tr.Spans) >= want, err
	})
	return tr
}

// TestExportFanOutToJaeger: a fan-out (two children: one runs bash twice,
// one fails a read) exported by `octop export` reads back from Jaeger as
// root → task call → child → tool calls, with the conventions'
// attributes, the server's token counts and costs, its times, and the
// same trace when exported again.
func TestExportFanOutToJaeger(t *testing.T) {
	parallel(t)
	j := harness.StartJaeger(t)
	for _, v := range harness.Versions() {
		t.Run(v, func(t *testing.T) {
			s := pricedServer(t, v)
			ctx := actCtxFor(t)
			c := actNewClient(t, s)
			defer actStopAll(c)
			root := actStartRoot(t, ctx, c, "octop e2e export",
				`FANOUT k=2 child="LEAF steps=2 sleep=0.2" child2="FAIL how=read"`)
			usageSettle(t, ctx, c, root.ID, nil)
			rt := readExportTree(t, ctx, c, root.ID)
			if len(rt.sessions) != 3 {
				t.Fatalf("the fan-out made %d sessions, want the root and 2 children", len(rt.sessions))
			}
			code, out, errs := actOctop(t, s.URL, "", "export", root.ID, "--otlp", j.OTLP)
			tid := otlp.TraceIDFor(root.ID).String()
			if code != 0 || !strings.Contains(out, root.ID+"  trace "+tid) || errs != "" {
				t.Fatalf("export: exit %d\nstdout %s\nstderr %s", code, out, errs)
			}
			tr := waitTrace(t, ctx, j, root.ID, rt.spanCount())
			if len(tr.Spans) != rt.spanCount() {
				t.Fatalf("Jaeger has %d spans, the tree makes %d", len(tr.Spans), rt.spanCount())
			}
			checkTrace(t, tr, rt, v)

			// Again: the same ids, and the same content, so Jaeger shows
			// the same spans once.
			code, out2, _ := actOctop(t, s.URL, "", "export", root.ID, "--otlp", j.OTLP)
			if code != 0 || out2 != out {
				t.Fatalf("second export: exit %d, %q; the first said %q", code, out2, out)
			}
			again, err := j.Trace(ctx, tid)
			if err != nil || len(again.Spans) != len(tr.Spans) || len(again.Warnings) != 0 {
				t.Errorf("after a second export Jaeger has %d spans (warnings %v, %v), want the same %d",
					len(again.Spans), again.Warnings, err, len(tr.Spans))
			}
		})
	}
}

// TestWatchExportsARootWhenItEnds: `octop watch --otlp` sends a root's
// trace once the root ends, before --until-done lets it exit.
func TestWatchExportsARootWhenItEnds(t *testing.T) {
	parallel(t)
	j := harness.StartJaeger(t)
	s := pricedServer(t, harness.V118)
	ctx := actCtxFor(t)
	c := actNewClient(t, s)
	defer actStopAll(c)
	root := actStartRoot(t, ctx, c, "octop e2e watch export", `FANOUT k=2 child="LEAF steps=1 sleep=0.5"`)
	w := startWatch(t, s.URL, "--root", root.ID, "--until-done", "--otlp", j.OTLP)
	if code := w.exitCode(t); code != 0 {
		t.Fatalf("watch exit %d\n%s", code, w.errText())
	}
	if !strings.Contains(w.errText(), "exported "+root.ID+"  trace "+otlp.TraceIDFor(root.ID).String()) {
		t.Errorf("watch did not say it exported the root:\n%s", w.errText())
	}
	rt := readExportTree(t, ctx, c, root.ID)
	tr := waitTrace(t, ctx, j, root.ID, rt.spanCount())
	checkTrace(t, tr, rt, harness.V118)
}

// near reports whether Jaeger's µs are within a second of the server's ms.
func nearMS(us, ms int64) bool { return math.Abs(float64(us)/1000-float64(ms)) <= 1000 }
