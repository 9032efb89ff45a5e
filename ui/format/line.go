package format

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Fit cuts or pads a line to exactly width cells.
func Fit(s string, width int) string {
	w := ansi.StringWidth(s)
	if w > width {
		return ansi.Truncate(s, width, "…")
	}
	return s + strings.Repeat(" ", width-w)
}

// Spread puts left and right on one line of width cells, cutting left
// with an ellipsis when both do not fit.
func Spread(left, right string, width int) string {
	rw := ansi.StringWidth(right)
	if rw >= width {
		return Fit(left, width)
	}
	room := width - rw - 1
	if ansi.StringWidth(left) > room {
		left = ansi.Truncate(left, room, "…")
	}
	return left + strings.Repeat(" ", width-ansi.StringWidth(left)-rw) + right
}

// LineOf is line i of a pane's lines (each already width cells), or a
// blank line of width cells past its end.
func LineOf(lines []string, i, width int) string {
	if i < len(lines) {
		return lines[i]
	}
	return strings.Repeat(" ", width)
}

// Rect is a screen area in cells.
type Rect struct{ X, Y, W, H int }

// Contains says the cell x, y is inside r.
func (r Rect) Contains(x, y int) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}
