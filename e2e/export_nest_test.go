package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/otlp"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/wire"
)

// TestExportHardCasesNestInJaeger: four fan-outs, each with one hard
// child, on a real 1.18.33 with background subagents, exported by `octop
// export` to a real Jaeger and read back: a background child, a child
// aborted mid-call, a child resumed by hand long after, and a child
// killed with the server. In every trace each child's run lies within
// its parent's task call and that within the parent's run, each run is
// a span of its own over exactly the runs `tree --json` gives, and no
// span of a session covers time between two of its runs.
func TestExportHardCasesNestInJaeger(t *testing.T) {
	parallel(t)
	j := harness.StartJaeger(t)
	s := harness.Start(t, harness.Config{Version: harness.V118, StartTimeout: 3 * time.Minute,
		Env: []string{"OPENCODE_EXPERIMENTAL_BACKGROUND_SUBAGENTS=1"}})
	ctx := actCtxFor(t)
	c := actNewClient(t, s)
	defer actStopAll(c)

	resumed := hardRoot(t, ctx, c, s, "nest resumed", `FANOUT k=1 desc=resumee child="LEAF steps=1 sleep=0.2"`)
	background := hardRoot(t, ctx, c, s, "nest background",
		`FANOUT k=1 background=true desc=bg child="LEAF steps=2 sleep=0.5"`)

	aborted := actStartRoot(t, ctx, c, "nest aborted", `FANOUT k=1 desc=abortee child="LEAF steps=3 sleep=5"`)
	abortee := waitChildren(t, c, aborted.ID, 1)[0]
	actWaitCallUnderWay(t, ctx, c, abortee.ID)
	if code, _, errs := actOctop(t, s.URL, "", "abort", abortee.ID); code != 0 {
		t.Fatalf("octop abort %s: exit %d: %s", abortee.ID, code, errs)
	}
	waitResult(t, s, aborted.ID)

	killed := actStartRoot(t, ctx, c, "nest killed", `FANOUT k=1 desc=killed child="LEAF steps=3 sleep=30"`)
	actWaitCallUnderWay(t, ctx, c, waitChildren(t, c, killed.ID, 1)[0].ID)
	if err := s.Stop(); err != nil { // SIGKILL, the child mid-call
		t.Fatal(err)
	}
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}

	// Resumed by hand, long after its parent ended.
	resumee := waitChildren(t, c, resumed, 1)[0]
	if code, out, errs := actOctop(t, s.URL, "", "resume", resumee.ID, "--prompt", "LEAF steps=1 sleep=0.2", "--wait",
		"--timeout", actE2eWait.String()); code != 0 {
		t.Fatalf("octop resume %s: exit %d\n%s%s", resumee.ID, code, out, errs)
	}

	roots := []string{resumed, background, aborted.ID, killed.ID}
	code, out, errs := actOctop(t, s.URL, "", append([]string{"export", "--otlp", j.OTLP}, roots...)...)
	if code != 0 || errs != "" {
		t.Fatalf("export: exit %d\n%s%s", code, out, errs)
	}
	nodes := treeNodes(t, s.URL)
	for _, r := range roots {
		rt := readExportTree(t, ctx, c, r)
		n := &nestCheck{t: t, rt: rt, nodes: nodes}
		n.check(waitTrace(t, ctx, j, r, n.spanCount()))
	}
	if n := nodes[resumee.ID]; n == nil || len(n.Runs) != 2 {
		t.Errorf("the resumed child: %+v, want two runs", n)
	}
	for id, want := range map[string]string{abortee.ID: "aborted", waitChildren(t, c, killed.ID, 1)[0].ID: "interrupted"} {
		if n := nodes[id]; n == nil || n.Reason != want {
			t.Errorf("child %s: %+v, want %s: the case was not made", id, n, want)
		}
	}
}

// hardRoot starts a root with script and waits until it is done.
func hardRoot(t *testing.T, ctx context.Context, c *client.Client, s *harness.Server, title, script string) string {
	t.Helper()
	r := actStartRoot(t, ctx, c, title, script)
	waitResult(t, s, r.ID)
	return r.ID
}

// waitResult waits with `octop result --wait` until id (and what it
// waits on in the background) is done.
func waitResult(t *testing.T, s *harness.Server, id string) {
	t.Helper()
	if code, out, _ := actOctop(t, s.URL, "", "result", id, "--wait", "--timeout", actE2eWait.String()); code != 0 ||
		!strings.HasPrefix(out, "status: complete\n") {
		t.Fatalf("result --wait %s: exit %d\n%s", id, code, out)
	}
}

// nestCheck checks one root's trace as Jaeger gives it back.
type nestCheck struct {
	t     *testing.T
	rt    exportTree
	nodes map[string]*live.Node
	byID  map[string]harness.JaegerSpan
}

// spanCount is how many spans the tree makes: one per run, reply and
// tool call.
func (n *nestCheck) spanCount() int {
	count := n.rt.spanCount() - len(n.rt.sessions)
	for id := range n.rt.sessions {
		count += max(len(n.nodes[id].Runs), 1)
	}
	return count
}

func (n *nestCheck) check(tr harness.JaegerTrace) {
	t := n.t
	t.Helper()
	n.byID = map[string]harness.JaegerSpan{}
	for _, s := range tr.Spans {
		n.byID[s.SpanID] = s
	}
	if len(tr.Spans) != n.spanCount() {
		t.Errorf("%s: Jaeger has %d spans, the tree makes %d", n.rt.root, len(tr.Spans), n.spanCount())
	}
	for _, s := range tr.Spans {
		if err := n.nests(s); err != nil {
			t.Errorf("%s: %v", n.rt.root, err)
		}
	}
	for id := range n.rt.sessions {
		n.session(id)
	}
}

// nests checks that a span lies within its parent: a run within the task
// call that started it (or its parent's run), a call or a reply within
// the run that holds it (a background call outlives its reply).
func (n *nestCheck) nests(s harness.JaegerSpan) error {
	if s.Parent() == "" {
		return nil
	}
	p, ok := n.byID[s.Parent()]
	if !ok {
		return fmt.Errorf("%s %s: its parent %s is not in the trace", s.OperationName, s.SpanID, s.Parent())
	}
	for !strings.HasPrefix(s.OperationName, "invoke_agent") && !strings.HasPrefix(p.OperationName, "invoke_agent") {
		if p, ok = n.byID[p.Parent()]; !ok {
			return fmt.Errorf("%s %s: no run above it", s.OperationName, s.SpanID)
		}
	}
	if s.StartTime < p.StartTime || s.StartTime+s.Duration > p.StartTime+p.Duration {
		return fmt.Errorf("%s %s (%s) is not within %s %s (%s)", s.OperationName, s.SpanID, n.when(s),
			p.OperationName, p.SpanID, n.when(p))
	}
	return nil
}

// when is a span's times in ms since the root's creation.
func (n *nestCheck) when(s harness.JaegerSpan) string {
	at := n.rt.sessions[n.rt.root].Time.Created * 1000
	return fmt.Sprintf("%d–%d ms", (s.StartTime-at)/1000, (s.StartTime+s.Duration-at)/1000)
}

// session checks a session's runs: one span each, over the runs tree
// --json gives, a later one hanging nowhere but linked to the first; and
// every reply and call of the session within one of them.
func (n *nestCheck) session(id string) {
	t := n.t
	node := n.nodes[id]
	if node == nil {
		t.Errorf("tree --json has no %s", id)
		return
	}
	var runs []harness.JaegerSpan
	for i, r := range node.Runs {
		s, ok := n.byID[otlp.RunSpanID(id, i).String()]
		if !ok {
			t.Errorf("%s: no span for its run %d", id, i)
			return
		}
		if s.StartTime != r.Start*1000 || s.Duration != (r.End-r.Start)*1000 {
			t.Errorf("%s run %d: the span is %d µs + %d µs, tree --json says %d–%d ms", id, i, s.StartTime, s.Duration, r.Start, r.End)
		}
		if i > 0 && s.Parent() == "" && !follows(s, otlp.RunSpanID(id, 0).String()) {
			t.Errorf("%s run %d hangs nowhere and does not link to its first run", id, i)
		}
		runs = append(runs, s)
	}
	for _, m := range n.rt.msgs[id] {
		if m.Info.Role != "assistant" {
			continue
		}
		n.inARun(id, runs, otlp.SpanIDFor(otlp.KindMessage, m.Info.ID).String())
		for _, p := range m.Parts {
			if p.Type == wire.PartTool {
				n.inARun(id, runs, otlp.SpanIDFor(otlp.KindPart, p.ID).String())
			}
		}
	}
}

// inARun checks the span lies within one of the session's runs: none
// covers idle time between two.
func (n *nestCheck) inARun(id string, runs []harness.JaegerSpan, span string) {
	s, ok := n.byID[span]
	if !ok {
		n.t.Errorf("%s: no span %s", id, span)
		return
	}
	for _, r := range runs {
		if s.StartTime >= r.StartTime && s.StartTime+s.Duration <= r.StartTime+r.Duration {
			return
		}
	}
	n.t.Errorf("%s: %s %s (%s) lies within none of its runs", id, s.OperationName, s.SpanID, n.when(s))
}

func follows(s harness.JaegerSpan, to string) bool {
	for _, r := range s.References {
		if r.RefType == "FOLLOWS_FROM" && r.SpanID == to {
			return true
		}
	}
	return false
}
