package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// fuzzWidths are the widths FuzzRender draws at: the narrowest, a few
// pane widths, and a wide terminal.
var fuzzWidths = []int{1, 2, 7, 20, 40, 80, 119}

// FuzzRender: an agent's answer is any text. Rendering it must not panic
// and, as Render promises, no line may be wider than the width or end in
// a space, in every style. Seeds: testdata/fuzz/FuzzRender (headings,
// lists, code, tables, links, wide and combining characters, escapes in
// the text).
func FuzzRender(f *testing.F) {
	f.Add("# Done\n\n- one\n- two\n\n```go\nfmt.Println(1)\n```", uint8(40))
	renderers := make([][]*Renderer, len(fuzzWidths))
	for i := range fuzzWidths {
		renderers[i] = []*Renderer{New(true, false), New(false, false), New(true, true)}
	}
	f.Fuzz(func(t *testing.T, text string, w uint8) {
		i := int(w) % len(fuzzWidths)
		width := fuzzWidths[i]
		for _, r := range renderers[i] {
			out := r.Render(text, width)
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
