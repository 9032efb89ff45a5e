package diff

import (
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/format"
)

// FuzzFiles: a message summary's diffs are the server's strings: a
// unified patch (1.18.x), or a file before and after (1.1.x) that becomes
// one here. No input may panic, no line of a patch may hold a line break,
// and a patch made from before and after adds only lines of after and
// removes only lines of before.
func FuzzFiles(f *testing.F) {
	f.Add("main.go", "a\nb\nc\n", "a\nB\nc\nd\n", "")
	f.Add("x.go", "", "", "@@ -1 +1 @@\n-old\n+new\n")
	f.Add("t.txt", "no newline", "no newline\tat end", "")
	f.Fuzz(func(t *testing.T, file, before, after, patch string) {
		msgs := []wire.MessageWithParts{{Info: wire.Message{ID: "msg_1", Role: "user",
			Summary: &wire.MessageSummary{Diffs: []wire.FileDiff{{File: file, Before: before, After: after, Patch: patch}}}}}}
		for _, fl := range Files(msgs) {
			beforeLines, afterLines := lineSet(before), lineSet(after)
			for i, l := range Lines(fl.Patch) {
				if strings.ContainsAny(l.Text, "\n") {
					t.Fatalf("line %d holds a line break: %q", i, l.Text)
				}
				if patch != "" {
					continue
				}
				switch body := l.Text[min(1, len(l.Text)):]; l.Kind {
				case Added:
					if !afterLines[body] {
						t.Fatalf("line %d adds %q, not a line of after %q", i, body, after)
					}
				case Removed:
					if !beforeLines[body] {
						t.Fatalf("line %d removes %q, not a line of before %q", i, body, before)
					}
				}
			}
		}
	})
}

// lineSet is text's lines as Lines shows them.
func lineSet(text string) map[string]bool {
	set := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		set[format.Text(strings.TrimRight(l, "\r"))] = true
	}
	return set
}
