package config

import (
	"fmt"

	"github.com/octop-dev/octop/internal/bytesize"
)

// The bounds of a config file, checked before the TOML parser sees it.
// The parser's work grows with the square of a key's depth and it
// recurses once per nested array, so a small file of nested inline
// tables could take gigabytes and a long run of "[" overflowed the stack
// (docs/perf.md, "Hostile input"). octop's own settings nest two deep
// ([[server]], watchdog.abort_on) and fit in a few KB: both limits leave
// room for any real file and bound the parser's work to a few tens of MB.
const (
	// MaxSize is the largest config file octop reads.
	MaxSize = 64 << 10
	// MaxNesting is how deep a value may sit: each table, array, inline
	// table and dotted key's part is a level.
	MaxNesting = 8
)

// bounded refuses a file over MaxSize or nested deeper than MaxNesting,
// with one line naming the limit (and the line where it was passed).
func bounded(data []byte) error {
	if len(data) > MaxSize {
		return fmt.Errorf("the file is %s, more than the %s a config file may be", bytesize.Text(int64(len(data))), bytesize.Text(MaxSize))
	}
	if line := tooDeep(data); line > 0 {
		return fmt.Errorf("line %d: nested more than %d levels deep (tables, arrays, inline tables and dotted keys "+
			"each count); octop's settings nest 2 deep", line, MaxNesting)
	}
	return nil
}

// tooDeep is the first line where data nests deeper than MaxNesting, or
// 0. It reads TOML as far as nesting needs: strings (basic, literal, and
// their multi-line forms) and comments are skipped. A level is each
// bracket or brace open around a place, each dot of the keys leading to
// it, and the depth of the table header above it. A dot in a number
// (1.5, a time's fraction) counts too: that can only make the count
// larger, by one.
func tooDeep(data []byte) int {
	var n nesting
	n.line, n.lineStart = 1, true
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch c {
		case ' ', '\t', '\r':
			continue
		case '\n':
			n.line++
			n.dots, n.lineStart = 0, true // a key ends with its line
			continue
		case '#':
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
			continue
		case '"', '\'':
			end, lines := skipString(data, i)
			i, n.line = end, n.line+lines
		default:
			n.step(c)
		}
		n.lineStart = false
		if n.depth() > MaxNesting {
			return n.line
		}
	}
	return 0
}

// nesting is tooDeep's count at one place of a file.
type nesting struct {
	line      int
	lineStart bool // nothing but blanks yet on this line
	header    bool // within a [table] or [[table]] header
	headerMax int  // the deepest place of that header
	table     int  // the levels of the last header: its keys' own start
	open      int  // brackets and braces open
	dots      int  // dots of the key being read, at this bracket
	carried   int  // dots of the keys of the brackets open
	kept      [MaxNesting + 1]int
}

func (n *nesting) depth() int {
	if n.header {
		return n.open + n.carried + n.dots
	}
	return n.table + n.open + n.carried + n.dots
}

// step counts one byte outside strings, comments and blanks.
func (n *nesting) step(c byte) {
	switch c {
	case '[', '{':
		if c == '[' && n.lineStart && n.open == 0 {
			n.header, n.headerMax = true, 0
		}
		if n.open < len(n.kept) { // deeper is refused before it matters
			n.kept[n.open] = n.dots
		}
		n.carried += n.dots
		n.open++
		n.dots = 0
	case ']', '}':
		if n.open == 0 {
			return // the parser says so
		}
		n.open--
		if n.open < len(n.kept) {
			n.dots = n.kept[n.open]
		}
		n.carried -= n.dots
		if n.header && n.open == 0 {
			n.header, n.table = false, n.headerMax
		}
	case ',':
		n.dots = 0
	case '.':
		n.dots++
	}
	if n.header {
		n.headerMax = max(n.headerMax, n.depth())
	}
}

// skipString is where the string opening at data[i] ends (the index of
// its last quote, or the end of data when it never closes: the parser
// says so) and how many newlines it holds.
func skipString(data []byte, i int) (end, lines int) {
	q := data[i]
	multi := i+2 < len(data) && data[i+1] == q && data[i+2] == q
	if multi {
		i += 2
	}
	for i++; i < len(data); i++ {
		switch c := data[i]; {
		case c == '\\' && q == '"':
			if i+1 < len(data) && data[i+1] == '\n' {
				lines++
			}
			i++ // an escape: the next byte is not the end
		case c == '\n':
			lines++
			if !multi {
				return i - 1, lines - 1 // an unclosed one-line string: the parser says so
			}
		case c != q:
		case !multi:
			return i, lines
		case i+2 < len(data) && data[i+1] == q && data[i+2] == q:
			// A multi-line string may end with up to two more quotes
			// of its own before the closing three.
			for i+3 < len(data) && data[i+3] == q {
				i++
			}
			return i + 2, lines
		}
	}
	return len(data), lines
}
