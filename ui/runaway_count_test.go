package ui

import (
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// TestHeaderCountsRunawaysRunningNow: a looping session that has
// completed keeps its mark on its row, as evidence, but the header counts
// only the runaways running now (issue 28: it kept `⚠ 1 runaway` for a
// looper that had completed).
func TestHeaderCountsRunawaysRunningNow(t *testing.T) {
	clk := &clock{now}
	m := send(t, watchModel(t, 160, 48, clk), runaways())
	if sc := screen(m); !strings.Contains(headerOf(sc), "⚠ 1 runaway") {
		t.Fatalf("no runaway counted while the looper runs:\n%s", sc)
	}
	grep := `{"command":"grep -rn flaky ."}`
	m = send(t, m, events(
		toolCall("ses_loop", "prt_l2", "bash", wire.ToolCompleted, "grep -rn flaky .", grep, 22, 22.5),
		finished("ses_loop", 400, 0.002, 23), idle("ses_loop")))
	sc := screen(m)
	if !strings.Contains(rowOf(sc, "find where it flakes"), "⚠ loop") {
		t.Errorf("the completed looper lost its mark:\n%s", sc)
	}
	if strings.Contains(headerOf(sc), "runaway") {
		t.Errorf("the header still counts a looper that has completed:\n%s", headerOf(sc))
	}
	// Running again, it counts again.
	m = send(t, m, events(busy("ses_loop")))
	if sc := screen(m); !strings.Contains(headerOf(sc), "⚠ 1 runaway") {
		t.Errorf("the looper runs again, uncounted:\n%s", headerOf(sc))
	}
}

// headerOf is the screen's two header lines.
func headerOf(screen string) string {
	lines := strings.SplitN(screen, "\n", 3)
	return strings.Join(lines[:min(2, len(lines))], "\n")
}
