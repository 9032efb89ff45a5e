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
