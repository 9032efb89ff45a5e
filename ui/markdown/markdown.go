// Package markdown renders an agent's markdown for a terminal width, as
// the result view and the transcript show it: glamour's style for the
// terminal's background, its ascii style under NO_COLOR, and plain wrapped
// text should glamour fail. It keeps one glamour renderer per width.
package markdown

import (
	"strings"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"
)

// Renderer renders markdown; it is not safe for concurrent use (the ui
// calls it from View only).
type Renderer struct {
	style string
	width int
	tr    *glamour.TermRenderer
}

// New returns a Renderer for a dark or light background, or none
// (noColor).
func New(isDark, noColor bool) *Renderer {
	style := "dark"
	switch {
	case noColor:
		style = "ascii"
	case !isDark:
		style = "light"
	}
	return &Renderer{style: style}
}

// Render returns text rendered for width cells, without glamour's padding
// and framing blank lines, no line wider than width.
func (r *Renderer) Render(text string, width int) string {
	text = strings.TrimSpace(text)
	width = max(width, 1)
	plain := ansi.Wrap(text, width, " ")
	if r.tr == nil || r.width != width {
		tr, err := glamour.NewTermRenderer(glamour.WithStandardStyle(r.style), glamour.WithWordWrap(width))
		if err != nil {
			return plain
		}
		r.tr, r.width = tr, width
	}
	out, err := r.tr.Render(text)
	if err != nil {
		return plain
	}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
		if ansi.StringWidth(lines[i]) > width {
			lines[i] = ansi.Truncate(lines[i], width, "…")
		}
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}
