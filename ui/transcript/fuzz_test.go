package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/internal/testkit/termtest"
	"github.com/octop-dev/octop/internal/transcript"
	"github.com/octop-dev/octop/ui/styles"
)

// FuzzEntryLines: every field of an entry is what the server sent (a
// prompt, reasoning, a tool's title, input, output and error, an error
// message). Each kind of entry, folded or open, selected or not, must draw
// as one-line strings none wider than the pane, or than the 10 cells the
// renderer keeps as its floor, and holding nothing a terminal acts on but
// the renderer's own colours (termtest.Screen) (Text's markdown is fuzzed in ui/markdown:
// here a plain wrap stands in).
func FuzzEntryLines(f *testing.F) {
	f.Add("fix the parser\nsecond line", "go test ./...", "ok\n\tline two\r\n\x1b[31mred\x1b[0m", "exit status 1", uint8(60))
	f.Add("日本語のテキスト 🎉", "", "", "", uint8(3))
	st := styles.New(true, false)
	md := func(text string, w int) string { return strings.Join(wrap(text, w), "\n") }
	f.Fuzz(func(t *testing.T, text, input, output, errText string, w uint8) {
		width := int(w)%140 + 1
		r := newRenderer(st, md)
		for _, kind := range []transcript.Kind{transcript.KindPrompt, transcript.KindText, transcript.KindReasoning, transcript.KindTool, transcript.KindError} {
			for _, status := range []string{"running", "error"} {
				e := &transcript.Entry{Kind: kind, PartID: "prt_1", Text: text, Tool: "bash", Status: status,
					Input: input, Title: input, Output: output, Error: errText, ChildID: "ses_c"}
				for _, open := range []bool{false, true} {
					for i, l := range r.lines(e, width, open, open) {
						if strings.Contains(l, "\n") {
							t.Fatalf("%s entry, line %d spans lines: %q", kind, i, l)
						}
						if got := ansi.StringWidth(l); got > max(width, 10) {
							t.Fatalf("%s entry at width %d: line %d is %d wide: %q", kind, width, i, got, l)
						}
						if bad := termtest.Screen(l); bad != "" {
							t.Fatalf("%s entry, line %d holds %s", kind, i, bad)
						}
					}
				}
			}
		}
	})
}
