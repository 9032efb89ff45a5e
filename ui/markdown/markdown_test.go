package markdown

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/octop-dev/octop/internal/testkit/colourtest"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// TestElements pins each element's text at two widths (the NO_COLOR
// rendering with its bold and italic codes stripped).
func TestElements(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		width    int
		want     string
	}{
		{"heading", "# Title\n\n### Third *level*", 40, "# Title\n\n### Third level"},
		{"heading wraps", "## A heading long enough to wrap", 20, "## A heading long\nenough to wrap"},
		{"paragraph", "one\ntwo  \nthree", 40, "one two\nthree"},
		{"paragraph wraps", "The loader calls parse twice on every file it reads.", 20,
			"The loader calls\nparse twice on every\nfile it reads."},
		{"long word cut", "a https://example.com/a/very/long/path", 20, "a\nhttps://example.com/\na/very/long/path"},
		{"emphasis", "*it* **bold** ***both*** ~~gone~~", 40, "it bold both ~~gone~~"},
		{"inline code", "run `go test ./...` now", 40, "run `go test ./...` now"},
		{"escapes and entities", `\*not\* &amp; &copy; &#65;`, 40, "*not* & © A"},
		{"link", "see [the docs](https://x.io/docs)", 40, "see the docs (https://x.io/docs)"},
		{"link is its address", "[https://x.io](https://x.io) and <https://y.io> and <me@x.io>", 60,
			"https://x.io and https://y.io and me@x.io"},
		{"image", "![a diagram](d.png) ![](e.png)", 40, "a diagram e.png"},
		{"bullets", "- one\n- two\n  - nested\n    - deeper", 40, "• one\n• two\n  • nested\n    • deeper"},
		{"bullet wraps", "- an item long enough to wrap", 16, "• an item long\n  enough to wrap"},
		{"loose list", "- one\n\n- two", 40, "• one\n\n• two"},
		{"ordered", "3. three\n4. four\n5. five\n6. six\n7. seven\n8. eight\n9. nine\n10. ten", 40,
			"3.  three\n4.  four\n5.  five\n6.  six\n7.  seven\n8.  eight\n9.  nine\n10. ten"},
		{"ordered nested", "1. first\n   - sub\n2. second", 40, "1. first\n   • sub\n2. second"},
		{"tasks", "- [x] done\n- [ ] open", 40, "[✓] done\n[ ] open"},
		{"quote", "> quoted text that wraps here\n>\n> > nested", 20, "│ quoted text that\n│ wraps here\n│\n│ │ nested"},
		{"rule", "a\n\n---\n\nb", 10, "a\n\n──────────\n\nb"},
		{"fenced code", "```go\nfunc f() {\n\treturn 1\n}\n```", 40, "  func f() {\n      return 1\n  }"},
		{"code cut", "```\nfmt.Println(\"a line of code too wide\")\n```", 20, "  fmt.Println(\"a li…"},
		{"indented code", "text\n\n    x := 1", 40, "text\n\n  x := 1"},
		{"table", "| a | bb |\n|:-|--:|\n| `c` | 1 |\n| dddd | 22 |", 40,
			"a    │ bb\n─────┼───\n`c`  │  1\ndddd │ 22"},
		{"table too wide", "| a long header | another one |\n|---|---|\n| x | y |", 20,
			"| a long header |\nanother one |\n|---|---|\n| x | y |"},
		{"html", "<div>\nblock\n</div>\n\nan <b>inline</b> tag", 40, "<div>\nblock\n</div>\n\nan <b>inline</b> tag"},
		{"escape codes shown", "red \x1b[31mtext\x1b[0m\tand tab", 40, "red ␛[31mtext␛[0m    and tab"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ansi.Strip(New(true, true).Render(tc.in, tc.width))
			if got != tc.want {
				t.Errorf("width %d:\n%s\nwant:\n%s", tc.width, got, tc.want)
			}
		})
	}
}

// TestStyles: in colour, marks give way to colour and type (the heading
// keeps its #); under NO_COLOR nothing is coloured, yet headings and
// strong text are still bold and addresses underlined.
func TestStyles(t *testing.T) {
	in := "# Title\n\n**strong** `code` ~~old~~ [docs](https://x.io)"
	colour := New(true, false).Render(in, 60)
	if got, want := ansi.Strip(colour), "# Title\n\nstrong code old docs (https://x.io)"; got != want {
		t.Errorf("colour text:\n%s\nwant:\n%s", got, want)
	}
	for what, code := range map[string]string{"heading colour": "\x1b[1;38;2;180;162;255m# ", "strikethrough": "\x1b[9m",
		"code colour": "38;2;240;160;112mcode", "bold": "\x1b[1mstrong"} {
		if !strings.Contains(colour, code) {
			t.Errorf("colour rendering has no %s (%q): %q", what, code, colour)
		}
	}
	plain := New(true, true).Render(in, 60)
	if e := colourtest.Escape(plain); e != "" {
		t.Errorf("NO_COLOR rendering has a colour code %s: %q", e, plain)
	}
	for what, code := range map[string]string{"bold heading": "\x1b[1m# ", "bold": "\x1b[1mstrong", "underlined address": "4mhttps://x.io"} {
		if !strings.Contains(plain, code) {
			t.Errorf("NO_COLOR rendering has no %s (%q): %q", what, code, plain)
		}
	}
	if light := New(false, false).Render(in, 60); light == colour {
		t.Error("the light rendering is the dark one")
	}
}

// TestRenderGolden pins a whole answer, every element in it, at two
// widths in colour and under NO_COLOR. Every line fits, none ends in a
// space, and there is no blank line first or last.
func TestRenderGolden(t *testing.T) {
	in, err := os.ReadFile("testdata/answer.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{40, 80} {
		for _, noColor := range []bool{false, true} {
			t.Run(fmt.Sprintf("w%d/%s", w, map[bool]string{false: "color", true: "nocolor"}[noColor]), func(t *testing.T) {
				out := New(true, noColor).Render(string(in), w)
				if e := colourtest.Escape(out); noColor && e != "" {
					t.Fatalf("a colour code %s under NO_COLOR", e)
				}
				lines := strings.Split(out, "\n")
				if lines[0] == "" || lines[len(lines)-1] == "" {
					t.Errorf("a blank line first or last:\n%s", out)
				}
				for i, l := range lines {
					if ansi.StringWidth(l) > w || strings.HasSuffix(ansi.Strip(l), " ") {
						t.Errorf("line %d is %d wide (max %d) or ends in a space: %q", i, ansi.StringWidth(l), w, l)
					}
				}
				golden.RequireEqual(t, out)
			})
		}
	}
}

// TestRenderCaches: the same text at the same width comes from the last
// rendering; another width is drawn again.
func TestRenderCaches(t *testing.T) {
	r := New(true, false)
	out := r.Render("# a\n\nsome text to wrap", 40)
	r.src = []byte("poison")
	if again := r.Render("# a\n\nsome text to wrap", 40); again != out {
		t.Errorf("the same text drawn again differs: %q, was %q", again, out)
	}
	if narrow := r.Render("# a\n\nsome text to wrap", 8); narrow == out || !strings.Contains(ansi.Strip(narrow), "some\ntext to\nwrap") {
		t.Errorf("another width was not drawn again: %q", narrow)
	}
}

// panicky is a parser that fails.
type panicky struct{ parser.Parser }

func (panicky) Parse(text.Reader, ...parser.ParseOption) ast.Node { panic("broken") }

// TestRenderFallsBack: should rendering fail, the text is shown as it is,
// wrapped to the width.
func TestRenderFallsBack(t *testing.T) {
	r := New(true, false)
	r.parser = panicky{}
	if got, want := r.Render("# Done\n\nall **three** callers fixed", 14), "# Done\n\nall **three**\ncallers fixed"; got != want {
		t.Errorf("fallback:\n%s\nwant:\n%s", got, want)
	}
}
