package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// TestRetry: octop retry starts a failed, an aborted and an interrupted
// child again beside it (same parent, the task call's prompt and agent,
// the link in its title), and a failed root as a new root; --wait and
// --json work as launch's; tree --json links each retry to its original,
// from the server's state after a restart.
func TestRetry(t *testing.T) {
	parallel(t)
	repairForTargets(t, nil, func(t *testing.T, s *harness.Server) {
		ctx := actCtxFor(t)
		c := actNewClient(t, s)
		defer actStopAll(c)
		wait := testwait.Scale(actE2eWait).String()

		const failing, runaway = "ERROR status=400", "RUNAWAY sleep=0.3"
		fan := actStartRoot(t, ctx, c, "octop e2e retry fan-out",
			fmt.Sprintf("FANOUT k=2 child1=%q child2=%q", failing, runaway))
		kids := repairKids(t, ctx, c, fan.ID, 2)
		failed, aborted := kids["worker 1 (@general subagent)"], kids["worker 2 (@general subagent)"]
		actWaitCallUnderWay(t, ctx, c, aborted.ID)
		if code, _, errs := actOctop(t, s.URL, "", "abort", aborted.ID); code != 0 {
			t.Fatalf("abort: exit %d, stderr %q", code, errs)
		}
		actWaitRun(t, ctx, c, fan.ID, wire.StatusIdle)
		badRoot := actStartRoot(t, ctx, c, "octop e2e failing root", failing)
		actWaitRun(t, ctx, c, badRoot.ID, wire.StatusIdle)

		// Interrupted: the server dies under a running child.
		cut := actStartRoot(t, ctx, c, "octop e2e retry cut", fmt.Sprintf("FANOUT k=1 child=%q", runaway))
		interrupted := repairKids(t, ctx, c, cut.ID, 1)["worker 1 (@general subagent)"]
		actWaitCallUnderWay(t, ctx, c, interrupted.ID)
		if err := s.Restart(); err != nil {
			t.Fatal(err)
		}
		repairCheckReason(t, s, map[string]string{failed.ID: "APIError", aborted.ID: "aborted", interrupted.ID: "interrupted"})

		// The failed child, as it was: it fails again, and --wait says so.
		code, out, errs := actOctop(t, s.URL, "", "retry", failed.ID, "--wait", "--timeout", wait)
		again := repairCheckRetry(t, ctx, c, failed, fan.ID, "worker 1", "general", failing, out)
		if code != 4 || !strings.Contains(out, "status: error") {
			t.Errorf("retry --wait of the failed child: exit %d, stderr %q; want 4 and its error:\n%s", code, errs, out)
		}
		// The aborted child, with a prompt of its own, as JSON.
		const leaf = "LEAF steps=1 sleep=0.1"
		code, out, errs = actOctop(t, s.URL, "", "retry", aborted.ID, "--prompt", leaf, "--wait", "--json", "--timeout", wait)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		var launched struct {
			TaskID  string `json:"task_id"`
			Status  string `json:"status"`
			RetryOf string `json:"retry_of"`
		}
		var result struct{ Status, Result string }
		if code != 0 || len(lines) != 2 || json.Unmarshal([]byte(lines[0]), &launched) != nil || json.Unmarshal([]byte(lines[1]), &result) != nil ||
			launched.Status != "launched" || launched.RetryOf != aborted.ID || result.Status != "complete" || result.Result != "leaf finished after 1 steps" {
			t.Errorf("retry --wait --json of the aborted child: exit %d, stderr %q, stdout:\n%s", code, errs, out)
		}
		repairCheckRetry(t, ctx, c, aborted, fan.ID, "worker 2", "general", leaf, "task_id: "+launched.TaskID+"\n")
		// The interrupted child, as it was; then stopped again.
		code, out, errs = actOctop(t, s.URL, "", "retry", interrupted.ID)
		cutAgain := repairCheckRetry(t, ctx, c, interrupted, cut.ID, "worker 1", "general", runaway, out)
		if code != 0 {
			t.Errorf("retry of the interrupted child: exit %d, stderr %q", code, errs)
		}
		if code, _, errs := actOctop(t, s.URL, "", "abort", cutAgain); code != 0 {
			t.Errorf("abort the retried runaway: exit %d, %s", code, errs)
		}
		// The failed root: a new root, its first prompt and agent.
		code, out, errs = actOctop(t, s.URL, "", "retry", badRoot.ID, "--wait", "--timeout", wait)
		rootAgain := repairCheckRetry(t, ctx, c, badRoot, "", "octop e2e failing root", "build", failing, out)
		if code != 4 {
			t.Errorf("retry --wait of the failed root: exit %d, stderr %q", code, errs)
		}

		// Nothing octop keeps: a fresh read links each retry.
		if err := s.Restart(); err != nil {
			t.Fatal(err)
		}
		repairCheckLinks(t, s, map[string]string{again: failed.ID, launched.TaskID: aborted.ID, cutAgain: interrupted.ID, rootAgain: badRoot.ID})
	})
}

// repairKids waits for parent's n children and returns them by title.
func repairKids(t *testing.T, ctx context.Context, c *client.Client, parent string, n int) map[string]wire.Session {
	t.Helper()
	out := map[string]wire.Session{}
	actWaitFor(t, fmt.Sprintf("%d children of %s", n, parent), func() (bool, error) {
		kids, err := actChildren(ctx, c, parent)
		for _, k := range kids {
			out[k.Title] = k
		}
		return len(kids) == n, err
	})
	return out
}

// repairCheckRetry checks the retry of orig that retry printed (its
// task_id line first): its parent, title, agent and first prompt; it
// returns its id.
func repairCheckRetry(t *testing.T, ctx context.Context, c *client.Client, orig wire.Session, parent, desc, agent, prompt, out string) string {
	t.Helper()
	id := strings.TrimPrefix(strings.SplitN(out, "\n", 2)[0], "task_id: ")
	s, err := c.Session(ctx, id)
	if err != nil {
		t.Fatalf("the retry of %s (%q): %v", orig.ID, out, err)
	}
	title := desc + " (retry of " + orig.ID + ")"
	if parent != "" {
		title += " (@" + agent + " subagent)"
	}
	if s.ParentID != parent || s.Title != title {
		t.Errorf("the retry of %s is under %q titled %q; want %q, %q", orig.ID, s.ParentID, s.Title, parent, title)
	}
	if want := fmt.Sprintf("retry_of: %s\n", orig.ID); !strings.HasPrefix(out, "task_id: ") || (strings.Contains(out, "agent:") && !strings.Contains(out, want)) {
		t.Errorf("retry printed %q, want a retry_of line", out)
	}
	var msgs []wire.MessageWithParts
	// 1.1.65 can list the prompt's message a moment before its text part.
	actWaitFor(t, "the retry's first prompt and its text", func() (bool, error) {
		msgs, err = c.Messages(ctx, id, 0)
		return len(msgs) > 0 && len(msgs[0].Parts) > 0, err
	})
	first := msgs[0]
	if first.Info.Role != "user" || first.Info.Agent != agent || len(first.Parts) == 0 || first.Parts[0].Text != prompt {
		t.Errorf("the retry's first message is %+v %+v; want %q to %s", first.Info, first.Parts, prompt, agent)
	}
	return id
}

// repairTree reads tree --json, by id.
func repairTree(t *testing.T, s *harness.Server) map[string]*live.Node {
	t.Helper()
	code, out, _ := actOctop(t, s.URL, "", "tree", "--json")
	var roots []*live.Node
	if code != 0 || json.Unmarshal([]byte(out), &roots) != nil {
		t.Fatalf("tree --json: exit %d", code)
	}
	byID := map[string]*live.Node{}
	var walk func(ns []*live.Node)
	walk = func(ns []*live.Node) {
		for _, n := range ns {
			byID[n.ID] = n
			walk(n.Children)
		}
	}
	walk(roots)
	return byID
}

// repairCheckReason checks how each session ended, by tree --json.
func repairCheckReason(t *testing.T, s *harness.Server, want map[string]string) {
	t.Helper()
	nodes := repairTree(t, s)
	for id, reason := range want {
		if n := nodes[id]; n == nil || n.Status != "error" || n.Reason != reason {
			t.Errorf("%s: %+v; want an error, reason %s", id, n, reason)
		}
	}
}

// repairCheckLinks checks each retry's retryOf in tree --json, and that
// no other session has one.
func repairCheckLinks(t *testing.T, s *harness.Server, want map[string]string) {
	t.Helper()
	for id, n := range repairTree(t, s) {
		if n.RetryOf != want[id] {
			t.Errorf("%s (%q): retryOf %q, want %q", id, n.Title, n.RetryOf, want[id])
		}
	}
}
