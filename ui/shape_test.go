package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/ui/room"
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

// tallDialog is a dialog larger than any screen it is shown on.
type tallDialog struct{ w, h int }

func (d tallDialog) Update(tea.Msg) (room.Dialog, tea.Cmd) { return d, nil }
func (d tallDialog) View(int, int) string {
	lines := make([]string, d.h)
	for i := range lines {
		lines[i] = "\x1b[1m" + strings.Repeat("#", d.w) + "\x1b[m"
	}
	return strings.Join(lines, "\n")
}

// A dialog is spliced over the screen: the screen keeps its shape whatever
// the dialog's size, the box sits centred with the screen showing on both
// sides, and a box taller or wider than the screen is clipped to it.
func TestOverlayKeepsTheScreenShape(t *testing.T) {
	for _, d := range []tallDialog{{10, 4}, {200, 3}, {20, 100}} {
		m := newTestModel(t, 60, 12)
		m = send(t, m, fanOut())
		m.dialog = d
		out := screen(m)
		checkScreenShape(t, out, 60, 12)
		lines := strings.Split(out, "\n")
		boxW, boxH := min(d.w, 60), min(d.h, 12)
		top := (12 - boxH) / 2
		left := (60 - boxW) / 2
		for i, l := range lines {
			in := i >= top && i < top+boxH
			covered := strings.Count(l, "#")
			want := strings.Repeat("#", boxW)
			if d.w > 60 {
				want = strings.Repeat("#", boxW-1) + "…" // cut like any line too long
			}
			if in && (covered != strings.Count(want, "#") || ansi.Cut(l, left, left+boxW) != want) {
				t.Fatalf("dialog %dx%d: line %d = %q, want %q from column %d", d.w, d.h, i, l, want, left)
			}
			if !in && covered != 0 {
				t.Fatalf("dialog %dx%d: line %d outside the box has '#': %q", d.w, d.h, i, l)
			}
		}
	}
}
