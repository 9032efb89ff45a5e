package sanitize

import "unicode"

// invisibles are the characters drawn as nothing whose width terminals
// disagree on, so a row holding one would not keep its columns: the
// default-ignorable code points of Unicode (DerivedCoreProperties:
// the soft hyphen, which tmux and glibc count as one cell and the width
// tables octop lays out with as none; the zero-width spaces, joiners and
// marks; the variation selectors, whose VS16 turns ❤ into an emoji two
// cells wide to some terminals and one to tmux and xterm; the Hangul
// fillers; the tags) and the emoji skin-tone modifiers, which join the
// character before them into one two-cell emoji to the width tables but
// are two more cells to tmux and xterm. Without them every terminal
// counts the text the same. The bidi controls among the default
// ignorables are not here: Bad shows them as the replacement character.
var invisibles = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x00ad, Hi: 0x00ad, Stride: 1},
		{Lo: 0x034f, Hi: 0x034f, Stride: 1},
		{Lo: 0x061c, Hi: 0x061c, Stride: 1},
		{Lo: 0x115f, Hi: 0x1160, Stride: 1},
		{Lo: 0x17b4, Hi: 0x17b5, Stride: 1},
		{Lo: 0x180b, Hi: 0x180f, Stride: 1},
		{Lo: 0x200b, Hi: 0x200f, Stride: 1},
		{Lo: 0x2060, Hi: 0x2065, Stride: 1},
		{Lo: 0x206a, Hi: 0x206f, Stride: 1},
		{Lo: 0x3164, Hi: 0x3164, Stride: 1},
		{Lo: 0xfe00, Hi: 0xfe0f, Stride: 1},
		{Lo: 0xfeff, Hi: 0xfeff, Stride: 1},
		{Lo: 0xffa0, Hi: 0xffa0, Stride: 1},
		{Lo: 0xfff0, Hi: 0xfff8, Stride: 1},
	},
	R32: []unicode.Range32{
		{Lo: 0x1bca0, Hi: 0x1bca3, Stride: 1},
		{Lo: 0x1d173, Hi: 0x1d17a, Stride: 1},
		{Lo: 0x1f3fb, Hi: 0x1f3ff, Stride: 1},
		{Lo: 0xe0000, Hi: 0xe0fff, Stride: 1},
	},
}

// Invisible reports whether r is drawn as nothing, and dropped by Line
// and Text: a default-ignorable code point (a soft hyphen, a zero-width
// joiner, a variation selector…) or an emoji skin-tone modifier. A
// terminal shows none of them as a character of its own, and terminals
// disagree on the cells they take, so a row that held one would lose or
// gain a column in some of them.
func Invisible(r rune) bool {
	return r >= 0xad && !bidi(r) && unicode.Is(invisibles, r)
}
