package markdown

import (
	"fmt"
	"strings"
)

// Limits on what is parsed as markdown. goldmark's work grows with the
// square of a line's nesting ("> " five thousand times on one line) and
// with the number of brackets times the length of the text they open
// (each "[" may start a link whose end is looked for to the end of its
// paragraph or line), and this package's with the nesting of what it
// draws; within these limits an answer renders in a bounded time,
// however it is written. Past any of them, the rest of the
// text is shown as it is, wrapped, under a note that says where markdown
// stopped; past format.MaxText nothing more is drawn, and a note says how
// much there was. A rendering runs in the screen's event loop: its cost
// is a delay on every key.
const (
	// MaxBytes is how much of an answer is parsed as markdown.
	MaxBytes = 16 << 10
	// MaxDepth is how many quotes and list items a line may open, one
	// inside the other.
	MaxDepth = 16
	// MaxBrackets is how many opening brackets ([) the markdown may hold.
	MaxBrackets = 256
)

// limit splits s into the markdown to parse and the rest to show as
// plain text: the rest begins at the first line past MaxBytes or
// MaxBrackets, or nested deeper than MaxDepth; note says which, "" when s
// is whole. Lines in
// code blocks count too: a block opened inside a quote ends where a line
// leaves the quote, which only a parser can tell.
func limit(s string) (md, rest, note string) {
	brackets := 0
	for at := 0; at < len(s); {
		end := strings.IndexByte(s[at:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += at + 1
		}
		if end > MaxBytes {
			return s[:at], s[at:], fmt.Sprintf("… markdown cut at %d KB: the rest as plain text", MaxBytes>>10)
		}
		if nesting(s[at:end]) > MaxDepth {
			return s[:at], s[at:], fmt.Sprintf("… markdown cut at depth %d: the rest as plain text", MaxDepth)
		}
		if brackets += strings.Count(s[at:end], "["); brackets > MaxBrackets {
			return s[:at], s[at:], fmt.Sprintf("… markdown cut at %d brackets: the rest as plain text", MaxBrackets)
		}
		at = end
	}
	return s, "", ""
}

// nesting counts the quote marks (>) and list markers (-, +, *, 1. or
// 1)) line starts with, the spaces around them skipped.
func nesting(line string) int {
	depth := 0
	for {
		rest := strings.TrimLeft(line, " \t")
		switch {
		case strings.HasPrefix(rest, ">"):
			line = rest[1:]
		case len(rest) > 1 && strings.IndexByte("-+*", rest[0]) >= 0 && (rest[1] == ' ' || rest[1] == '\t'):
			line = rest[2:]
		case ordered(rest) > 0:
			line = rest[ordered(rest):]
		default:
			return depth
		}
		depth++
	}
}

// ordered is the length of the ordered list marker s starts with ("12. ",
// "3) "), or 0.
func ordered(s string) int {
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i+1 >= len(s) || (s[i] != '.' && s[i] != ')') || (s[i+1] != ' ' && s[i+1] != '\t') {
		return 0
	}
	return i + 2
}
