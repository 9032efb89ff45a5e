package result

import (
	"strings"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/ui/styles"
)

// markdown renders an agent's answer, which is markdown, for the result
// view: headings, lists and code blocks read as such instead of as raw
// marks. It keeps the last rendering, since a running task's view is
// refreshed every second with mostly the same text, and rendering is the
// one costly step of that refresh.
type markdown struct {
	st    *styles.Styles
	text  string
	width int
	out   string
}

func newMarkdown(st *styles.Styles) *markdown { return &markdown{st: st} }

// render returns text rendered for width cells: glamour's style for the
// terminal's background; under NO_COLOR its ascii style, which keeps # and
// ** as the only emphasis left; plain wrapped text should glamour fail.
func (m *markdown) render(text string, width int) string {
	text = strings.TrimSpace(text)
	if text == m.text && width == m.width && m.out != "" {
		return m.out
	}
	m.text, m.width = text, width
	m.out = ansi.Wrap(text, width, " ")
	style := "dark"
	switch {
	case m.st.NoColor:
		style = "ascii"
	case !m.st.IsDark:
		style = "light"
	}
	r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(width))
	if err != nil {
		return m.out
	}
	out, err := r.Render(text)
	if err != nil {
		return m.out
	}
	// glamour pads every line to the width and frames the text with blank
	// lines; the dialog has its own margins.
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
		if ansi.StringWidth(lines[i]) > width {
			lines[i] = ansi.Truncate(lines[i], width, "…")
		}
	}
	m.out = strings.Trim(strings.Join(lines, "\n"), "\n")
	return m.out
}
