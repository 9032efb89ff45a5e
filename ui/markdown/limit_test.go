package markdown

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/ui/format"
)

// TestLimit: markdown stops at the first line nested deeper than
// MaxDepth or past MaxBytes, and the note says which.
func TestLimit(t *testing.T) {
	deep := strings.Repeat("> ", MaxDepth) + "ok\n" + strings.Repeat(">", MaxDepth+1) + " too deep\nafter"
	long := strings.Repeat("a line of text\n", MaxBytes/15+10)
	for _, tc := range []struct {
		name, in, md, note string
	}{
		{"whole", "# a\n\n> b\n- c", "# a\n\n> b\n- c", ""},
		{"at depth", deep, deep[:strings.Index(deep, ">>")], "… markdown cut at depth 16: the rest as plain text"},
		{"lists count", strings.Repeat("- ", 17) + "x", "", "… markdown cut at depth 16: the rest as plain text"},
		{"ordered and quotes", strings.Repeat("1. > ", 8) + "x", strings.Repeat("1. > ", 8) + "x", ""},
		{"brackets", strings.Repeat("[a](b)\n", MaxBrackets) + "[c", strings.Repeat("[a](b)\n", MaxBrackets),
			"… markdown cut at 256 brackets: the rest as plain text"},
		{"at size", long, long[:MaxBytes-MaxBytes%15], "… markdown cut at 16 KB: the rest as plain text"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md, rest, note := limit(tc.in)
			if md != tc.md || note != tc.note || md+rest != tc.in {
				t.Errorf("limit = %q, %q, %q; want %q, the rest, %q", md, rest, note, tc.md, tc.note)
			}
		})
	}
}

// growing is n lines, line i opening i of unit one inside the other:
// 3,000 lines of it ran over two minutes.
func growing(n int, unit string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(strings.Repeat(unit, i) + " x\n")
	}
	return b.String()
}

// TestRenderWorkFollowsSize: what a rendering allocates follows the
// text's length, not how it nests. Nested quotes ("> " 5,000 times froze
// the screen for seconds; each level drew every line below it again),
// lines nesting ever deeper, a list opening 5,000 lists on one line (each
// cut at MaxDepth), 8,000 brackets nested (cut at MaxBrackets): the rest
// is shown as plain text under the note, and each allocates no more per
// byte drawn (format.MaxText at most: 50 MB of prose is cut) than ten
// times what plain prose does (a long quote, in markdown to the end, the
// most: each line gets its bar).
func TestRenderWorkFollowsSize(t *testing.T) {
	perByte := func(s string) uint64 {
		r := New(true, false)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		out := r.Render(s, 80)
		runtime.ReadMemStats(&m1)
		if s != prose && !strings.Contains(ansi.Strip(out), "… markdown cut at") && !strings.Contains(ansi.Strip(out), "… cut at") {
			t.Errorf("no note says the text was cut: %.200q", out)
		}
		return (m1.TotalAlloc - m0.TotalAlloc) / uint64(min(len(s), format.MaxText))
	}
	base := perByte(prose)
	for name, in := range map[string]string{
		"quotes on one line":   strings.Repeat(">", 10_000),
		"quotes and spaces":    strings.Repeat("> ", 5_000) + "x",
		"quotes ever deeper":   growing(3_000, ">"),
		"lists ever deeper":    growing(300, "- "),
		"lists on one line":    strings.Repeat("- ", 5_000) + "x",
		"quotes past the size": strings.Repeat("> a\n", 10_000),
		"50 MB of prose":       strings.Repeat(prose, 50<<20/len(prose)),
		"nested brackets":      strings.Repeat("[", 8000) + "a" + strings.Repeat("]", 8000),
		"links never closed":   strings.Repeat("[a](", 4000),
	} {
		if got := perByte(in); got > 10*base {
			t.Errorf("%s (%d bytes): %d bytes allocated per byte of text, plain prose %d", name, len(in), got, base)
		}
	}
}

// prose is plain text as long as MaxBytes.
var prose = strings.Repeat("The loader calls parse twice on every file it reads. ", MaxBytes/53)

// TestRenderShowsTheRest: past the cut, the text is there as it was
// written, wrapped, cleaned.
func TestRenderShowsTheRest(t *testing.T) {
	in := "# Title\n\n" + strings.Repeat(">", 20) + " deep &#x1b; \x1b[2J\nlast line"
	got := ansi.Strip(New(true, true).Render(in, 40))
	want := fmt.Sprintf("# Title\n\n… markdown cut at depth %d: the rest as\nplain text\n%s deep &#x1b; ␛[2J\nlast line", MaxDepth, strings.Repeat(">", 20))
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestRenderCutsAtMaxText: past format.MaxText nothing more is drawn,
// and the last line says how much there was.
func TestRenderCutsAtMaxText(t *testing.T) {
	in := strings.Repeat("日本語のテキスト\n\n", 200<<10/26)
	lines := strings.Split(ansi.Strip(New(true, true).Render(in, 80)), "\n")
	if got, want := lines[len(lines)-1], fmt.Sprintf("… cut at 128 KB of %d KB", (len(in)+1023)>>10); got != want {
		t.Errorf("last line %q, want %q", got, want)
	}
	if n := strings.Count(strings.Join(lines, "\n"), "日本語のテキスト"); n*26 > format.MaxText+26 || n*26 < format.MaxText-26*2 {
		t.Errorf("%d lines of text drawn, %d bytes", n, n*26)
	}
}
