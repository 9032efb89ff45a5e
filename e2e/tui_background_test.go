package e2e

import (
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/testkit/harness"
)

// TestTUIBackground: on the screen, a root idle while its 2 background
// tasks run has its own mark and says what it waits on, and the header
// counts it running with them; it is done only once they are.
func TestTUIBackground(t *testing.T) {
	tuiRequireTmux(t)
	tg, _ := harness.ParseTarget(harness.V118 + "+flags")
	s := harness.SharedAt(t, tg)
	tm := tuiStart(t, 160, 40, "--server", s.URL)
	tm.waitFor("octop to connect", func(sc string) bool { return strings.Contains(sc, "● connected") })
	c := newClient(t, s)
	defer actStopAll(c)
	prompt(t, c, "tui bg root", `FANOUT k=2 background=true desc=worker child="LEAF steps=4 sleep=1.5"`)
	tm.waitFor("the root waiting on its 2 background tasks, counted running with them", func(sc string) bool {
		row := rowOf(sc, "tui bg root")
		return strings.Contains(row, "◔ tui bg root") && strings.Contains(row, "⟩ waiting on 2 background tasks") &&
			strings.Contains(sc, ": 3 running")
	})
	tm.waitFor("the root done once its tasks are", func(sc string) bool {
		return strings.Contains(rowOf(sc, "tui bg root"), "✓ tui bg root") &&
			strings.Contains(rowOf(sc, "worker 1 @general"), "✓ worker 1") &&
			strings.Contains(rowOf(sc, "worker 2 @general"), "✓ worker 2")
	})
}
