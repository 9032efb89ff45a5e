package format

import (
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Width is ansi.StringWidth(s), the cells s takes on a terminal, found
// quickly for the lines octop draws.
//
// ansi.StringWidth decodes s grapheme by grapheme, a few hundred
// instructions a character, and every frame measures lines. Most of
// them are plain: printable ASCII, the narrow symbols octop draws (·, …,
// box drawing, arrows, spinners, ✓), and style sequences (CSI). Each of
// those characters is a grapheme of its own one cell wide, and a CSI
// sequence takes none, so Width counts them; anything else (wide or
// combining characters, emoji, other escapes, controls) goes to
// ansi.StringWidth whole. TestWidthIsAnsis checks every narrow symbol and
// random lines against it.
func Width(s string) int {
	w := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			w++
			i++
		case c == 0x1b:
			n := csiLen(s[i:])
			if n == 0 {
				return ansi.StringWidth(s)
			}
			i += n
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(s[i:])
			if !narrow(r) {
				return ansi.StringWidth(s)
			}
			w++
			i += n
		default:
			return ansi.StringWidth(s)
		}
	}
	return w
}

// csiLen is the length of the CSI sequence s starts with (ESC [,
// parameter bytes, intermediate bytes, a final byte), or 0 when s does
// not start with a whole one.
func csiLen(s string) int {
	if len(s) < 2 || s[1] != '[' {
		return 0
	}
	i := 2
	for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3f {
		i++
	}
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		return i + 1
	}
	return 0
}

// narrow says r is one cell wide and a grapheme of its own beside any
// other narrow character or ASCII: the Latin-1 letters and signs, general
// punctuation, arrows, mathematical operators, control pictures, box
// drawing, blocks, geometric shapes, a few dingbats and the braille
// patterns, less the few of them that are emoji, wide or invisible
// (TestNarrowRunes holds the list to ansi.StringWidth).
func narrow(r rune) bool {
	switch {
	case r >= 0xa1 && r <= 0xff:
		return r != 0xad // the soft hyphen takes no cell
	case r >= 0x2010 && r <= 0x2027, r >= 0x2030 && r <= 0x205e:
		return true
	case r >= 0x2190 && r <= 0x21ff:
		return true
	case r >= 0x2200 && r <= 0x22ff:
		return true
	case r >= 0x2400 && r <= 0x2426:
		return true
	case r >= 0x2500 && r <= 0x25fc:
		return true
	case r == 0x2713, r == 0x2717, r == 0x26a0, r == 0x27e8, r == 0x27e9:
		return true
	case r >= 0x2800 && r <= 0x28ff:
		return true
	}
	return false
}
