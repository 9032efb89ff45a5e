// Package colourtest finds colour in rendered output, so tests can hold
// NO_COLOR to its word: no escape that sets a colour, anywhere.
package colourtest

import (
	"regexp"
	"strconv"
	"strings"
)

// sgr matches one Select Graphic Rendition escape: CSI params m.
var sgr = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// Escape returns the first SGR escape in s that sets a colour (foreground,
// background or underline colour), quoted, or "" when there is none.
// Bold, faint, italic, underline, reverse and the resets carry no colour:
// NO_COLOR keeps them. A colour's own numbers (the 5;196 of 38;5;196)
// are never reached: its 38 is found first.
func Escape(s string) string {
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		params := strings.FieldsFunc(m[1], func(r rune) bool { return r == ';' || r == ':' })
		for _, p := range params {
			n, err := strconv.Atoi(p)
			if err != nil {
				continue
			}
			if n == 38 || n == 48 || n == 58 || (n >= 30 && n <= 37) || (n >= 40 && n <= 47) ||
				(n >= 90 && n <= 97) || (n >= 100 && n <= 107) {
				return strconv.Quote(m[0])
			}
		}
	}
	return ""
}
