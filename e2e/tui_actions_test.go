package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// TestTUIActions drives the action keys in a real terminal: `x` plus its
// confirmation aborts a selected runaway child, and `n` with a typed
// description and prompt launches a child that shows up in the tree.
func TestTUIActions(t *testing.T) {
	parallel(t)
	tuiRequireTmux(t)
	s := harness.Start(t, harness.Config{Version: harness.V118})
	ctx := actCtxFor(t)
	c := actNewClient(t, s)
	defer actStopAll(c)
	root := actNewRoot(t, ctx, c, "tui actions root")
	runaway, err := live.Launch(ctx, c, task.LaunchRequest{Parent: root.ID, Agent: "general",
		Description: "runaway", Prompt: "RUNAWAY sleep=0.3"})
	if err != nil {
		t.Fatal(err)
	}
	actWaitRun(t, ctx, c, runaway.ID, wire.StatusBusy)

	tm := tuiStart(t, 160, 48, "--server", s.URL)
	tm.waitFor("the runaway child in the tree", func(sc string) bool {
		return strings.Contains(sc, "● connected") && strings.Contains(sc, "runaway @general")
	})

	// Select the child (the root is the first row), abort it, confirm.
	tm.actSend("j")
	tm.waitFor("the runaway child selected", func(sc string) bool { return strings.Contains(actHeader(sc), "runaway") })
	tm.actSend("x")
	tm.waitFor("the abort confirmation", func(sc string) bool {
		return strings.Contains(sc, "Abort runaway") && strings.Contains(sc, "y/enter abort")
	})
	if st, _ := actStatusType(ctx, c, runaway.ID); st != wire.StatusBusy {
		t.Fatalf("the child is %s before the confirmation, want busy", st)
	}
	tm.actSend("y")
	tm.waitFor("the abort notice", func(sc string) bool { return strings.Contains(sc, "aborted "+runaway.ID) })
	actWaitRun(t, ctx, c, runaway.ID, wire.StatusIdle)
	r, err := live.Result(ctx, c, runaway.ID)
	if err != nil || r.State != model.StatusError || r.Error == nil || r.Error.Name != "MessageAbortedError" {
		t.Errorf("after x: %+v, %v; want MessageAbortedError", r, err)
	}

	// Launch under the root with n: agent (general is preselected),
	// description, prompt, ctrl+s.
	tm.actSend("k")
	tm.waitFor("the root selected", func(sc string) bool { return strings.Contains(actHeader(sc), "tui actions root") })
	tm.actSend("n")
	tm.waitFor("the launch form with its agents", func(sc string) bool {
		return strings.Contains(sc, "Launch a task under tui actions root") && strings.Contains(sc, "General-purpose agent")
	})
	tm.actSend("Enter")
	tm.actType("tui launched")
	tm.actSend("Enter")
	tm.actType("LEAF steps=1 sleep=0.2")
	tm.actSend("C-s")
	// The notice names the task_id for a few seconds; the child comes in
	// through the stream, drawn under the root with a tree guide.
	sc := tm.waitFor("the launch notice", func(sc string) bool { return strings.Contains(sc, "launched task_id ses_") })
	underRoot := regexp.MustCompile(`[├└]── . tui launched @general`)
	tm.waitFor("the launched child in the tree", func(sc string) bool { return underRoot.MatchString(sc) })
	kids, err := actChildren(ctx, c, root.ID)
	if err != nil {
		t.Fatal(err)
	}
	var launched *wire.Session
	for i, k := range kids {
		if k.ID != runaway.ID {
			launched = &kids[i]
		}
	}
	if len(kids) != 2 || launched == nil || launched.Title != "tui launched (@general subagent)" {
		t.Fatalf("root's children after n: %+v", kids)
	}
	if !strings.Contains(sc, "launched task_id "+launched.ID) {
		t.Errorf("the notice does not name %s:\n%s", launched.ID, sc)
	}
	// The new child is selected.
	tm.waitFor("the launched child selected", func(sc string) bool { return strings.Contains(actHeader(sc), "tui launched") })
	res, err := live.Wait(ctx, c, launched.ID)
	if err != nil || res.State != model.StatusComplete {
		t.Errorf("the launched task ended %+v, %v", res, err)
	}
}

// actHeader is the screen's second line: what is selected.
func actHeader(screen string) string {
	lines := strings.SplitN(screen, "\n", 3)
	if len(lines) < 2 {
		return ""
	}
	return lines[1]
}

// actSend sends tmux key names (e.g. "Enter", "C-s", "j").
func (tm *tuiTerm) actSend(keys ...string) {
	tm.t.Helper()
	if out, err := tm.run(append([]string{"send-keys", "-t", "octop"}, keys...)...); err != nil {
		tm.t.Fatalf("tmux send-keys %v: %v\n%s", keys, err, out)
	}
}

// actType types text literally.
func (tm *tuiTerm) actType(text string) {
	tm.t.Helper()
	if out, err := tm.run("send-keys", "-t", "octop", "-l", text); err != nil {
		tm.t.Fatalf("tmux send-keys -l %q: %v\n%s", text, err, out)
	}
}
