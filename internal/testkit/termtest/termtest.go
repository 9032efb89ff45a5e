// Package termtest finds, for tests, what a terminal would act on in text
// octop was about to write to it: a control character, an escape
// sequence octop did not write itself, a C1 or bidi control, a byte that
// is not UTF-8. The hostile tests (a fake server whose every string
// carries such things) run every view and command through it.
package termtest

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/octop-dev/octop/internal/sanitize"
)

// Mark is how the hostile fake's payload (opencodetest.Payload) shows
// once cleaned: its window-title sequence, ESC and BEL as their pictures.
// A test that finds it knows the hostile text was drawn, and checked.
const Mark = "␛]0;pwned␇"

// ownSGR is the one escape sequence octop's views write themselves:
// Select Graphic Rendition (colours, bold, reverse), with numeric
// parameters only.
var ownSGR = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// StripSGR is s without octop's own SGR sequences.
func StripSGR(s string) string { return ownSGR.ReplaceAllString(s, "") }

// Screen describes the first thing in a screen's content a terminal
// would act on, once octop's own SGR sequences are taken out: any control
// but the newline, DEL, a C1 or bidi control, a byte that is not UTF-8.
// It names it with its line; "" when there is none.
func Screen(view string) string { return find(StripSGR(view), "\n") }

// Output is Screen for a command's plain output (stdout, stderr), which
// may hold newlines and tabs and no escape sequence at all.
func Output(out string) string { return find(out, "\n\t") }

func find(s, allowed string) string {
	for i, r := range s {
		bad := sanitize.Bad(r) && !strings.ContainsRune(allowed, r)
		if r == utf8.RuneError {
			_, w := utf8.DecodeRuneInString(s[i:])
			bad = bad || w == 1
		}
		if bad {
			start := strings.LastIndexByte(s[:i], '\n') + 1
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s) - i
			}
			return fmt.Sprintf("%U on line %d: %q", r, strings.Count(s[:i], "\n")+1, s[start:i+end])
		}
	}
	return ""
}
