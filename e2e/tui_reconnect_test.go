package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/harness"
)

// TestTUIRestartReplaysNoOldNews: with sessions that ended before octop
// started (one done, one that looped, one failed, one aborted) and
// nothing running, the screen's watchdog announces nothing, neither when
// their histories are read nor when the server restarts under it and the
// screen reconnects: the --exec hook's log holds only the events of the
// run started after the restart.
func TestTUIRestartReplaysNoOldNews(t *testing.T) {
	parallel(t)
	tuiRequireTmux(t)
	actForVersions(t, func(t *testing.T, s *harness.Server) {
		ctx := actCtxFor(t)
		c := actNewClient(t, s)
		defer actStopAll(c)
		for title, script := range map[string]string{
			"old done":    "LEAF steps=1 sleep=0.1",
			"old looper":  `LOOP max=4 cmd="echo same again"`,
			"old failure": "ERROR steps=0 status=400",
		} {
			actStartRoot(t, ctx, c, title, script)
		}
		stopped := actStartRoot(t, ctx, c, "old abort", "RUNAWAY sleep=0.3")
		actWaitProgress(t, ctx, c, stopped.ID)
		if _, err := live.AbortTree(ctx, c, stopped.ID); err != nil {
			t.Fatal(err)
		}
		waitIdle(t, s, actE2eWait)

		log := filepath.Join(t.TempDir(), "hook.log")
		hook := "'echo $OCTOP_EVENT $OCTOP_SESSION >> " + log + "'"
		tm := tuiStart(t, 160, 40, "--server", s.URL, "--loop", "3", "--notify", "none", "--exec", hook)
		settled := func(sc string) bool {
			return strings.Contains(sc, "● connected") && strings.Contains(sc, "all 4:") && !strings.Contains(sc, "loading")
		}
		tm.waitFor("the old sessions read", settled)

		tm.restartServer(s)
		sc := tm.waitFor("octop back, the sessions read again", settled)
		// The loop is marked on its row, as history: never announced,
		// and not counted in the header, which counts runaways running now.
		if !strings.Contains(rowOf(sc, "old looper"), "⚠ loop") || strings.Contains(actHeader(sc), "runaway") {
			t.Errorf("the old loop is not marked on its row alone:\n%s", sc)
		}

		fresh := actStartRoot(t, ctx, c, "new run", "LEAF steps=1 sleep=0.1")
		actWaitFor(t, "the hook to hear the new run end", func() (bool, error) {
			raw, _ := os.ReadFile(log)
			return strings.Contains(string(raw), "session.done "+fresh.ID), nil
		})
		raw, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		var old []string
		for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
			if !strings.HasSuffix(line, " "+fresh.ID) {
				old = append(old, line)
			}
		}
		if len(old) > 0 {
			t.Errorf("the hook ran for old news %q; its whole log:\n%s", old, raw)
		}
		if n := strings.Count(string(raw), "session.done "+fresh.ID); n != 1 {
			t.Errorf("the new run's end ran the hook %d times, want once:\n%s", n, raw)
		}
	})
}
