package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// checkScreenShape fails unless the screen is exactly h lines of exactly w
// cells: nothing wrapped, nothing spilled.
func checkScreenShape(t *testing.T, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Errorf("screen has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Errorf("line %d is %d cells wide, want %d: %q", i, got, w, l)
		}
	}
}

// TestTinyAndHugeScreens draws at sizes nobody should use and some they
// will: nothing panics, and the screen is always exactly the terminal.
func TestTinyAndHugeScreens(t *testing.T) {
	for _, size := range [][2]int{{1, 1}, {10, 3}, {20, 5}, {40, 10}, {99, 30}, {100, 30}, {200, 60}, {300, 100}} {
		for _, keys := range [][]string{nil, {"?"}, {"/", "lint"}, {"tab"}} {
			m := press(t, send(t, newTestModel(t, size[0], size[1]), troubled()), keys...)
			checkScreenShape(t, screen(m), size[0], size[1])
		}
	}
}
