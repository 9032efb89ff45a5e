package transcript

import (
	"runtime"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/internal/transcript"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/styles"
)

// TestEntriesDrawBoundedText: a 50 MB prompt, reasoning or call output
// is drawn up to format.MaxText, with a line saying how much there was;
// what a drawing allocates follows format.MaxText, not the text.
func TestEntriesDrawBoundedText(t *testing.T) {
	huge := strings.Repeat("a line of output\n", 50<<20/17)
	r := newRenderer(styles.New(true, true), nil)
	for _, kind := range []transcript.Kind{transcript.KindPrompt, transcript.KindReasoning, transcript.KindTool} {
		e := &transcript.Entry{Kind: kind, PartID: "prt_" + string(kind), Text: huge, Output: huge, Tool: "bash", Status: "completed"}
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		lines := r.lines(e, 80, true, false)
		runtime.ReadMemStats(&m1)
		if got := m1.TotalAlloc - m0.TotalAlloc; got > 64*format.MaxText {
			t.Errorf("%s: %d KB allocated to draw it", kind, got>>10)
		}
		if last := ansi.Strip(lines[len(lines)-2]); !strings.Contains(last, "… cut at 128 KB of 51200 KB") {
			t.Errorf("%s: the last line is %q, not the cut", kind, last)
		}
	}
}
