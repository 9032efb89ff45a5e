package format

import "strings"

// Rows keeps what the screen's rows were made of last frame, so a row
// whose parts are the same strings is the same string again, not a new
// one: a wide layout's row joins a line of the tree and one of the detail
// pane, each from its pane's cache when it did not change. The root holds
// one by pointer, shared by its copies, as the program keeps only the
// newest. The zero value is ready.
type Rows struct {
	rows   []joinedRow
	blanks map[int]string // a blank line of each width asked
	footer struct {
		src   string
		lines []string
	}
}

type joinedRow struct{ left, sep, right, line string }

// Join is left+sep+right, row i's: last frame's string when they are the
// same.
func (c *Rows) Join(i int, left, sep, right string) string {
	for len(c.rows) <= i {
		c.rows = append(c.rows, joinedRow{})
	}
	r := &c.rows[i]
	if r.line == "" || r.left != left || r.sep != sep || r.right != right {
		*r = joinedRow{left: left, sep: sep, right: right, line: left + sep + right}
	}
	return r.line
}

// LineOf is lines[i], or a blank line of width past their end.
func (c *Rows) LineOf(lines []string, i, width int) string {
	if i < len(lines) {
		return lines[i]
	}
	if b, ok := c.blanks[width]; ok {
		return b
	}
	if c.blanks == nil || len(c.blanks) > 8 {
		c.blanks = map[int]string{}
	}
	c.blanks[width] = strings.Repeat(" ", width)
	return c.blanks[width]
}

// Split is s split into lines, kept while s stays the same (the
// footer's text).
func (c *Rows) Split(s string) []string {
	if c.footer.lines == nil || c.footer.src != s {
		c.footer.src, c.footer.lines = s, strings.Split(s, "\n")
	}
	return c.footer.lines
}
