package markdown

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/styles"
)

// look is what a run of text is drawn as: the marks markdown put on it
// (strong, code, a link…), one bit each, combined as runs nest.
type look uint16

const (
	lookBold    look = 1 << iota // **strong**
	lookItalic                   // *emphasis*
	lookStrike                   // ~~strikethrough~~ (colour only)
	lookCode                     // `code` and code blocks
	lookLink                     // a link's text
	lookURL                      // a link's address
	lookHeading                  // # heading
	lookDim                      // rules, quote bars, table lines
)

// palette holds the colours of a rendering. Under NO_COLOR it has none:
// headings are bold, addresses underlined, code keeps its backticks and
// struck text its tildes, since only bold, faint, italic, underline and
// reverse video are left to mark them.
type palette struct {
	noColor                  bool
	heading, code, link, dim lipgloss.Style
	inks                     map[look]styles.Ink
}

func newPalette(isDark, noColor bool) *palette {
	st := styles.New(isDark, noColor)
	// Headings take the ui's accent, links its badge colour, rules and
	// addresses its secondary grey; code has a colour of its own.
	p := &palette{noColor: noColor, heading: st.Focused, link: st.Badge, dim: st.Dim, inks: map[look]styles.Ink{}}
	p.code = lipgloss.NewStyle()
	if !noColor {
		p.code = p.code.Foreground(lipgloss.LightDark(isDark)(lipgloss.Color("#A8431C"), lipgloss.Color("#F0A070")))
	}
	return p
}

// ink returns the escape codes that draw l, built once per look.
func (p *palette) ink(l look) styles.Ink {
	if k, ok := p.inks[l]; ok {
		return k
	}
	st := lipgloss.NewStyle()
	switch {
	case l&lookCode != 0:
		st = p.code
	case l&lookURL != 0:
		st = p.dim.Underline(true)
	case l&lookLink != 0:
		st = p.link
	case l&lookHeading != 0:
		st = p.heading
	case l&lookDim != 0:
		st = p.dim
	}
	if l&lookBold != 0 {
		st = st.Bold(true)
	}
	if l&lookItalic != 0 {
		st = st.Italic(true)
	}
	if l&lookStrike != 0 && !p.noColor {
		st = st.Strikethrough(true)
	}
	k := styles.InkOf(st)
	p.inks[l] = k
	return k
}

// paint draws s as l, cleaned (format.Text): it is the one way a piece
// of the answer enters a rendering, so it runs after goldmark has decoded
// whatever it decodes. Controls show as their pictures, tabs become four
// spaces (a terminal would draw them as up to eight cells that widths do
// not count), invisible characters go.
func (p *palette) paint(s string, l look) string {
	s = format.Text(s)
	if s == "" || l == 0 {
		return s
	}
	return p.ink(l).Render(s)
}

// carry keeps a style that a wrap cut in two on both of its lines: a line
// that ends inside a run is closed, and the next one opens it again, so
// what the caller puts before a line (a gutter, a list's indent) is never
// painted. Runs are one opening escape, text, and a reset (see paint).
func carry(lines []string) []string {
	open := ""
	for i, l := range lines {
		l = open + l
		open = ""
		if j := strings.LastIndex(l, "\x1b["); j >= 0 {
			if end := strings.IndexByte(l[j:], 'm'); end > 0 {
				if seq := l[j : j+end+1]; seq != "\x1b[m" && seq != "\x1b[0m" {
					open = seq
					l += "\x1b[m"
				}
			}
		}
		lines[i] = l
	}
	return lines
}
