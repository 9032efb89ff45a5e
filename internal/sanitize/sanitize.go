// Package sanitize is octop's one way out to a terminal for text it does
// not trust: whatever a server, an agent, a recording, a hook or a config
// file wrote passes through it before it is drawn on the screen, printed
// by a subcommand or written as JSON.
//
// What a terminal would act on rather than show goes: every C0 control
// (but newline and tab where the layout has room for them), DEL, every C1
// control (U+0080–U+009F) and the bidirectional embeddings, overrides and
// isolates (U+202A–U+202E, U+2066–U+2069), which reorder what is drawn
// after them. None of these is dropped silently: a C0 control or DEL
// becomes its Unicode control picture (ESC is ␛, BEL ␇, NUL ␀), anything
// else the replacement character �, as does a byte that is not UTF-8. A
// person sees that something was there, and the terminal receives only
// printable text. An escape sequence thus shows as its text: ESC[2J is
// "␛[2J".
//
// What is drawn as nothing and takes a different number of cells in
// different terminals goes without a mark (Invisible: a soft hyphen, a
// zero-width joiner, a variation selector, a skin-tone modifier), so that
// a row keeps its columns in tmux and the xterm family as well as in the
// width tables octop lays out with.
//
// Line is for one line of a layout, Text for text whose line breaks and
// tabs are kept, Writer for a stream of output, and JSON for JSON text.
package sanitize

import (
	"strings"
	"unicode/utf8"
)

// Replacement stands for a removed character that has no control picture
// (a C1 control, a bidi control, a byte that is not UTF-8).
const Replacement = '\uFFFD'

// Bad reports whether a terminal would act on r rather than show it: a
// C0 control, DEL, a C1 control or a bidi control. Newline and tab are
// among them: Line and Text decide what becomes of those.
func Bad(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f:
		return true
	case r < 0x80:
		return false
	case r <= 0x9f:
		return true
	}
	return bidi(r)
}

// bidi reports whether r is one of the bidirectional embeddings,
// overrides or isolates.
func bidi(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// Picture is what shows in r's place: its Unicode control picture for a
// C0 control (U+2400 + r) or DEL (U+2421), else Replacement.
func Picture(r rune) rune {
	switch {
	case r >= 0 && r < 0x20:
		return 0x2400 + r
	case r == 0x7f:
		return '\u2421'
	}
	return Replacement
}

// Line makes s one line of printable text: newlines, carriage returns and
// tabs become spaces, every other control its picture (see the package
// doc), bytes that are not UTF-8 the replacement character; invisible
// characters go.
func Line(s string) string {
	if clean(s, false) {
		return s
	}
	return rewrite(s, false)
}

// Text makes s printable text that keeps its line breaks and tabs: CRLF
// becomes a newline, a lone carriage return (which would send the cursor
// back over the line) its picture ␍, every other control its picture,
// bytes that are not UTF-8 the replacement character; invisible
// characters go.
func Text(s string) string {
	if clean(s, true) {
		return s
	}
	return rewrite(s, true)
}

// rewrite is Text of s when keep is set, else Line of s.
func rewrite(s string, keep bool) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, w := 0, 0; i < len(s); i += w {
		r := rune(s[i])
		w = 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && w == 1 {
				b.WriteRune(Replacement)
				continue
			}
		}
		switch {
		case keep && (r == '\n' || r == '\t'):
			b.WriteByte(byte(r))
		case keep && r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// the newline comes next
		case !keep && (r == '\n' || r == '\r' || r == '\t'):
			b.WriteByte(' ')
		case Bad(r):
			b.WriteRune(Picture(r))
		case Invisible(r):
			// drawn as nothing
		default:
			b.WriteString(s[i : i+w])
		}
	}
	return b.String()
}

// IsClean reports whether s is valid UTF-8 with no character Line would
// change or drop.
func IsClean(s string) bool { return clean(s, false) }

// clean reports whether s needs no change: valid UTF-8, no bad and no
// invisible character, newlines and tabs allowed when keep is set. It allocates
// nothing, so the common case (clean text) costs one pass.
func clean(s string, keep bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 || c == 0x7f) && (!keep || (c != '\n' && c != '\t')) {
				return false
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && w == 1) || Bad(r) || Invisible(r) {
			return false
		}
		i += w
	}
	return true
}
