package format

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/sanitize"
)

// Fit cuts or pads a line to exactly width cells.
func Fit(s string, width int) string {
	w := Width(s)
	if w > width {
		return ansi.Truncate(s, width, "…")
	}
	return s + strings.Repeat(" ", width-w)
}

// Spread puts left and right on one line of width cells, cutting left
// with an ellipsis when both do not fit.
func Spread(left, right string, width int) string {
	rw := Width(right)
	if rw >= width {
		return Fit(left, width)
	}
	room := width - rw - 1
	if Width(left) > room {
		left = ansi.Truncate(left, room, "…")
	}
	return left + strings.Repeat(" ", width-Width(left)-rw) + right
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

// tabWidth is how many spaces a tab becomes in text the screen lays out:
// widths measure a tab as no cell at all.
const tabWidth = 4

// Text is the screen's way in for text from a server or a recording that
// keeps its lines (a reply, a tool's output, an error body): cleaned by
// package sanitize (every control shown as its picture, ESC as ␛), CRLF
// as a newline, tabs as spaces. Layout code wraps and cuts what it
// returns, never the raw text.
func Text(s string) string {
	s = sanitize.Text(s)
	if strings.Contains(s, "\t") {
		s = strings.ReplaceAll(s, "\t", strings.Repeat(" ", tabWidth))
	}
	return s
}

// Wrap is Text wrapped to width cells (at least 1), breaking at spaces
// where it can and inside a word where it must.
func Wrap(s string, width int) string {
	width = max(width, 1)
	return ansi.Hardwrap(ansi.Wrap(Text(s), width, " "), width, true)
}

// MaxText is how much of a long text from a server (an answer, a prompt,
// reasoning, a call's output) a room draws: drawing runs in the screen's
// event loop, and its cost is a delay on every key.
const MaxText = 128 << 10

// Bounded is text whole when it holds at most MaxText bytes; else its
// first MaxText bytes (at a rune's start) and a note saying how much
// there was ("… cut at" the limit "of" the size), "" when nothing was cut.
func Bounded(text string) (shown, note string) {
	if len(text) <= MaxText {
		return text, ""
	}
	return headOf(text, MaxText), fmt.Sprintf("… cut at %d KB of %d KB", MaxText>>10, (len(text)+1023)>>10)
}
