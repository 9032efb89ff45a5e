package styles

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// Ink is a style reduced to the escape codes around its text, for the hot
// path: a tree row paints a dozen short runs per frame, and a full
// Style.Render for each (width math, margins, borders) costs more than the
// rest of the frame together. Only inline styles (colours, bold, reverse)
// reduce this way.
type Ink struct{ pre, post string }

// inkMarker is text no style changes, rendered once to find the codes.
const inkMarker = "\x1f"

// InkOf reduces an inline style to its escape codes.
func InkOf(st lipgloss.Style) Ink {
	out := st.Render(inkMarker)
	i := strings.Index(out, inkMarker)
	if i < 0 {
		return Ink{}
	}
	return Ink{pre: out[:i], post: out[i+len(inkMarker):]}
}

// Render paints s.
func (k Ink) Render(s string) string {
	if k.pre == "" && k.post == "" {
		return s
	}
	return k.pre + s + k.post
}
