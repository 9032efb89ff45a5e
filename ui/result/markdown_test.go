package result

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/internal/colourtest"
	"github.com/octop-dev/octop/ui/styles"
)

// An answer's markdown is rendered: list items get bullets, code fences
// go, code keeps its text, no line is wider than asked; in colour,
// headings and emphasis lose their marks; under NO_COLOR there is not a
// single colour code.
func TestMarkdownRendersAnAnswer(t *testing.T) {
	text := "# Findings\n\nThe **loader** calls `parse` twice.\n\n- one\n- two\n\n```go\nfmt.Println(1)\n```\n"
	for _, noColor := range []bool{true, false} {
		md := newMarkdown(styles.New(true, noColor))
		out := md.render(text, 40)
		plain := ansi.Strip(out)
		for _, want := range []string{"Findings", "loader", "parse", "• one", "fmt.Println(1)"} {
			if !strings.Contains(plain, want) {
				t.Errorf("noColor=%v: rendering lacks %q:\n%s", noColor, want, plain)
			}
		}
		// Without colour, # and ** stay as the only emphasis there is
		// (glamour's ascii style); in colour they give way to styling.
		raws := []string{"```"}
		if !noColor {
			raws = append(raws, "# Findings", "**loader**")
		}
		for _, raw := range raws {
			if strings.Contains(plain, raw) {
				t.Errorf("noColor=%v: raw markdown %q left in:\n%s", noColor, raw, plain)
			}
		}
		for _, l := range strings.Split(out, "\n") {
			if w := ansi.StringWidth(l); w > 40 {
				t.Errorf("noColor=%v: line %d cells wide, want ≤ 40: %q", noColor, w, l)
			}
		}
		if e := colourtest.Escape(out); noColor && e != "" {
			t.Errorf("NO_COLOR rendering has colour codes: %q", out)
		}
		if !noColor && !strings.Contains(out, "\x1b[") {
			t.Error("the coloured rendering has no styling at all")
		}
		// The same text and width come from the cache; another width is
		// rendered again.
		if again := md.render(text, 40); again != out {
			t.Error("rendering the same text twice gave different output")
		}
		if narrow := md.render(text, 20); narrow == out {
			t.Error("a new width did not re-render")
		}
	}
}
