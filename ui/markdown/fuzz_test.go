package markdown

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/sanitize"
)

// fuzzWidths are the widths FuzzRender draws at: the narrowest, a few
// pane widths, and a wide terminal.
var fuzzWidths = []int{1, 2, 7, 20, 40, 80, 119}

// issue26 is an agent's answer that, with the text cleaned before
// goldmark resolved its character references, retitled the terminal,
// wrote its clipboard, cleared the screen, opened a CSI with a C1 control
// and reversed the text after it.
const issue26 = "&#x1b;]0;pwned&#7; &#x1b;]52;c;ZXZpbA==&#7; &#x1b;[2J &#x9b;31m &#x202e;x"

// FuzzRender: an agent's answer is any text. Rendering it must not panic;
// as Render promises, no line may be wider than the width or end in a
// space, in every style; and nothing may leave the renderer that a
// terminal would act on but the renderer's own colours (leak): whatever
// goldmark decodes (character references, link destinations, HTML) is
// cleaned on its way out. Seeds: testdata/fuzz/FuzzRender (headings,
// lists, code, tables, links, wide and combining characters, escapes and
// character references in every element).
func FuzzRender(f *testing.F) {
	f.Add("# Done\n\n- one\n- two\n\n```go\nfmt.Println(1)\n```", uint8(40))
	f.Add(issue26, uint8(80))
	renderers := make([][]*Renderer, len(fuzzWidths))
	for i := range fuzzWidths {
		renderers[i] = []*Renderer{New(true, false), New(false, false), New(true, true)}
	}
	f.Fuzz(func(t *testing.T, text string, w uint8) {
		i := int(w) % len(fuzzWidths)
		width := fuzzWidths[i]
		for _, r := range renderers[i] {
			out := r.Render(text, width)
			if bad := leak(out, r.pal); bad != "" {
				t.Fatalf("style %s, width %d: %s\nfrom %q", r.style, width, bad, text)
			}
			for n, l := range strings.Split(out, "\n") {
				if got := ansi.StringWidth(l); got > width {
					t.Fatalf("style %s, width %d: line %d is %d wide: %q\nfrom %q", r.style, width, n, got, l, text)
				}
				if strings.HasSuffix(ansi.Strip(l), " ") {
					t.Fatalf("style %s, width %d: line %d ends in a space: %q\nfrom %q", r.style, width, n, l, text)
				}
			}
		}
	})
}

// leak describes the first thing in out a terminal would act on that the
// palette p did not write: an escape sequence but the SGR sequences of
// p's looks (and the reset), any other C0 control but the newline, DEL,
// a C1 or bidi control, a byte that is not UTF-8. "" when there is none.
func leak(out string, p *palette) string {
	own := ownSequences(p)
	for i := 0; i < len(out); {
		if out[i] == 0x1b {
			seq := sgrAt(out[i:])
			if seq == "" || !own[seq] {
				return fmt.Sprintf("an escape sequence it did not write at byte %d: %q", i, around(out, i))
			}
			i += len(seq)
			continue
		}
		r, n := utf8.DecodeRuneInString(out[i:])
		if r == utf8.RuneError && n == 1 {
			return fmt.Sprintf("a byte that is not UTF-8 at byte %d: %q", i, around(out, i))
		}
		if r != '\n' && sanitize.Bad(r) {
			return fmt.Sprintf("%U at byte %d: %q", r, i, around(out, i))
		}
		i += n
	}
	return ""
}

// sgrAt is the SGR sequence (CSI, digits and separators, m) s starts
// with, or "".
func sgrAt(s string) string {
	if !strings.HasPrefix(s, "\x1b[") {
		return ""
	}
	end := strings.IndexFunc(s[2:], func(r rune) bool { return (r < '0' || r > '9') && r != ';' && r != ':' })
	if end < 0 || s[2+end] != 'm' {
		return ""
	}
	return s[:2+end+1]
}

// ownSequences are the SGR sequences p writes: each look's opening and
// closing, and the reset carry closes a cut line with.
func ownSequences(p *palette) map[string]bool {
	own := map[string]bool{"\x1b[m": true, "\x1b[0m": true}
	for l := look(1); l < lookDim<<1; l++ {
		s := p.ink(l).Render("x")
		for i := 0; i < len(s); i++ {
			if seq := sgrAt(s[i:]); seq != "" {
				own[seq] = true
				i += len(seq) - 1
			}
		}
	}
	return own
}

// around is out near byte i, for a failure's message.
func around(out string, i int) string {
	return out[max(i-20, 0):min(i+20, len(out))]
}
