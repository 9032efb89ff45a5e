package diff

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/internal/testkit/termtest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/styles"
)

// FuzzView: a patch holds whatever the changed files held. The room must
// draw exactly its height in lines, none wider than its width, and pass
// nothing of the files' own a terminal acts on (termtest.Screen: a
// carriage return or a bell in a file would move the cursor or ring, an
// escape restyle the screen, a bidi control reorder the line).
func FuzzView(f *testing.F) {
	f.Add("main.go", "a\nb\n", "a\nB\n", "", uint8(80), uint8(12))
	f.Add("x.go", "", "", "@@ -1 +1 @@\n-old\r\n+new\x07 \x1b[2J\n", uint8(20), uint8(6))
	st := styles.New(true, false)
	f.Fuzz(func(t *testing.T, file, before, after, patch string, w, h uint8) {
		width, height := int(w)%160+1, int(h)%40+1
		m := New("ses_a", "title", st)
		m.SetSize(width, height)
		m, _ = m.Update(Loaded{ID: "ses_a", Msgs: []wire.MessageWithParts{{Info: wire.Message{ID: "msg_1", Role: "user",
			Summary: &wire.MessageSummary{Diffs: []wire.FileDiff{{File: file, Before: before, After: after, Patch: patch}}}}}}})
		lines := strings.Split(m.View(), "\n")
		if len(lines) != height {
			t.Fatalf("%d lines, want %d", len(lines), height)
		}
		for i, l := range lines {
			if got := ansi.StringWidth(l); got > width {
				t.Fatalf("line %d is %d wide, want <= %d: %q", i, got, width, l)
			}
			if bad := termtest.Screen(l); bad != "" {
				t.Fatalf("line %d passes on %s", i, bad)
			}
		}
	})
}
