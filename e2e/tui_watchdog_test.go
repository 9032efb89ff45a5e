package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/harness"
)

// TestTUIWatchdog: in the screen, a looping child gets the loop mark in
// its row within --loop calls and the header counts it and shows the
// notification; the bell reaches the terminal (tmux's alert-bell hook);
// --exec runs with the event in its environment and its failure shows;
// --abort-on loop stops exactly that child while its sibling runs on,
// and the detail pane says why it stopped, with the evidence.
func TestTUIWatchdog(t *testing.T) {
	tuiRequireTmux(t)
	s := harness.Shared(t, harness.V118)
	ctx := actCtxFor(t)
	c := actNewClient(t, s)
	defer actStopAll(c)
	const loopN = 3
	// The hook records its environment, then fails after the abort's own
	// notice has come, so the footer shows the failure.
	hookEnv := filepath.Join(t.TempDir(), "hook.env")
	hook := "'env | grep ^OCTOP_ | sort > " + hookEnv + "; sleep 2; echo hook-said-no; exit 3'"
	tm := tuiStart(t, 160, 40, "--server", s.URL, "--loop", "3", "--abort-on", "loop", "--notify", "bell", "--exec", hook)
	rang := filepath.Join(t.TempDir(), "rang")
	if out, err := tm.run("set-hook", "-g", "alert-bell", "run-shell 'touch "+rang+"'"); err != nil {
		t.Fatalf("tmux set-hook: %v\n%s", err, out)
	}
	tm.waitFor("octop to connect", func(sc string) bool { return strings.Contains(sc, "● connected") })

	root := actNewRoot(t, ctx, c, "tui watchdog root")
	kid, err := live.Launch(ctx, c, task.LaunchRequest{Parent: root.ID, Agent: "general",
		Description: "tui looper", Prompt: `LOOP cmd="sleep 0.3; echo same again"`})
	if err != nil {
		t.Fatal(err)
	}
	sib, err := live.Launch(ctx, c, task.LaunchRequest{Parent: root.ID, Agent: "general",
		Description: "tui sibling", Prompt: "RUNAWAY sleep=0.3"})
	if err != nil {
		t.Fatal(err)
	}
	sc := tm.waitFor("the loop mark on the looping child's row", func(sc string) bool {
		return strings.Contains(rowOf(sc, "tui looper"), "⚠ loop")
	})
	// The header counts the runaway while it runs; --abort-on may have
	// stopped it (■, or ⊘ for the moment before the server says aborted)
	// by the time the screen is read, and then it is not counted.
	counted := strings.Contains(actHeader(sc), "⚠ 1 runaway")
	row := rowOf(sc, "tui looper")
	stopped := strings.Contains(row, "■") || strings.Contains(row, "⊘")
	if counted == stopped || !strings.Contains(sc, "🔔 loop: tui looper") {
		t.Errorf("the header does not count the running runaway (only), or shows no notification:\n%s", sc)
	}
	actWaitFor(t, "tmux to see the bell", func() (bool, error) {
		_, err := os.Stat(rang)
		return err == nil, nil
	})
	tm.waitFor("the hook's failure in the footer", func(sc string) bool {
		return strings.Contains(sc, "--exec for runaway.loop "+kid.ID+": hook failed: exit status 3: hook-said-no")
	})
	env, err := os.ReadFile(hookEnv)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"OCTOP_EVENT=runaway.loop\n", "OCTOP_SESSION=" + kid.ID + "\n", "OCTOP_ROOT=" + root.ID + "\n",
		"OCTOP_SERVER=" + s.URL + "\n", "OCTOP_AGENT=general\n", `OCTOP_REASON=bash "sleep 0.3; echo same again" `} {
		if !strings.Contains(string(env), want) {
			t.Errorf("the hook's environment lacks %q:\n%s", want, env)
		}
	}
	actWaitRun(t, ctx, c, kid.ID, "idle")
	// The mark came within N calls: the abort left at most a call or two
	// more finished (the one running when it fired).
	if n, err := actCompletedTools(ctx, c, kid.ID); err != nil || n > loopN+2 {
		t.Errorf("the looping child finished %d calls before it was stopped (err %v), want at most %d", n, err, loopN+2)
	}
	actWaitProgress(t, ctx, c, sib.ID)
	if st, err := actStatusType(ctx, c, sib.ID); err != nil || st != "busy" {
		t.Errorf("the sibling is %q (err %v), want it still busy", st, err)
	}
	sc = tm.waitFor("the looper aborted, its sibling running", func(sc string) bool {
		return strings.Contains(rowOf(sc, "tui looper"), "■") && strings.Contains(rowOf(sc, "tui sibling"), "⟩")
	})
	if r := rowOf(sc, "tui sibling"); strings.Contains(r, "⚠") || strings.Contains(r, "■") {
		t.Errorf("the sibling is marked or stopped: %q", r)
	}
	// The newest root is on top; its first child is the looper.
	if _, err := tm.run("send-keys", "-t", "octop", "g", "j"); err != nil {
		t.Fatal(err)
	}
	sc = tm.waitFor("the detail pane to say why it stopped", func(sc string) bool {
		return strings.Contains(sc, "aborted by octop: loop") && strings.Contains(sc, `runaway ⚠ loop: bash "sleep 0.3; echo same again"`)
	})
	if strings.Contains(sc, "🔔") {
		t.Errorf("the notification stayed after a key press:\n%s", sc)
	}
}
