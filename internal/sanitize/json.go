package sanitize

import (
	"unicode/utf8"
)

// JSON returns the JSON text b with every character a terminal would act
// on escaped inside its strings: C0 controls, DEL, C1 controls and the
// bidi controls become \u00XX (\u202e…), bytes that are not UTF-8 \ufffd.
// encoding/json escapes only C0, so its output is passed through this
// before it is printed; what was valid JSON stays valid and means the
// same. Outside strings nothing changes. b itself comes back when it
// needs nothing.
func JSON(b []byte) []byte {
	if jsonClean(b) {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	in := false // inside a string
	for i := 0; i < len(b); {
		c := b[i]
		if !in {
			in = c == '"'
			out = append(out, c)
			i++
			continue
		}
		switch {
		case c == '\\' && i+1 < len(b):
			out = append(out, c, b[i+1])
			i += 2
			continue
		case c == '"':
			in = false
		case c < 0x20 || c == 0x7f:
			out = appendEscape(out, rune(c))
			i++
			continue
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(b[i:])
			switch {
			case r == utf8.RuneError && n == 1:
				out = appendEscape(out, Replacement)
			case Bad(r):
				out = appendEscape(out, r)
			default:
				out = append(out, b[i:i+n]...)
			}
			i += n
			continue
		}
		out = append(out, c)
		i++
	}
	return out
}

const hexDigits = "0123456789abcdef"

// appendEscape appends r as \uXXXX.
func appendEscape(out []byte, r rune) []byte {
	return append(out, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

// jsonClean reports whether b holds nothing JSON would escape: no DEL, no
// byte that is not UTF-8 and no C1 or bidi control (C0 controls are
// allowed between tokens, where encoding/json puts its newlines and
// indentation, and cannot be raw inside its strings).
func jsonClean(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c == 0x7f || (c < 0x20 && c != '\n' && c != '\t' && c != '\r' && c != ' ') {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if (r == utf8.RuneError && n == 1) || Bad(r) {
			return false
		}
		i += n
	}
	return true
}
