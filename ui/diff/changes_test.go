package diff

import (
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

func userWith(diffs ...wire.FileDiff) wire.MessageWithParts {
	return wire.MessageWithParts{Info: wire.Message{Role: "user", Summary: &wire.MessageSummary{Diffs: diffs}}}
}

// 1.18 sends a patch, 1.1 before/after; a file two runs touched adds up.
func TestFilesBothShapes(t *testing.T) {
	msgs := []wire.MessageWithParts{
		userWith(wire.FileDiff{File: "b.txt", Patch: "Index: b.txt\n--- b.txt\n+++ b.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n", Additions: 2, Status: "added"}),
		{Info: wire.Message{Role: "assistant", Summary: &wire.MessageSummary{}}},
		userWith(wire.FileDiff{File: "a.txt", Before: "one\ntwo\n", After: "one\n2\n", Additions: 1, Deletions: 1, Status: "modified"},
			wire.FileDiff{File: "b.txt", Before: "x\ny\n", After: "x\n", Deletions: 1, Status: "modified"}),
	}
	files := Files(msgs)
	if len(files) != 2 || files[0].Path != "a.txt" || files[1].Path != "b.txt" {
		t.Fatalf("files %+v", files)
	}
	b := files[1]
	if b.Additions != 2 || b.Deletions != 1 || b.Status != "modified" {
		t.Errorf("b.txt over two runs: %+v", b)
	}
	wantA := "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n"
	if files[0].Patch != wantA {
		t.Errorf("a.txt patch from before/after:\n%q\nwant\n%q", files[0].Patch, wantA)
	}
	if add, del := Totals(files); add != 3 || del != 2 {
		t.Errorf("totals +%d -%d, want +3 -2", add, del)
	}
	var kinds []LineKind
	for _, l := range Lines(files[0].Patch) {
		kinds = append(kinds, l.Kind)
	}
	want := []LineKind{Header, Header, Hunk, Context, Removed, Added}
	if len(kinds) != len(want) {
		t.Fatalf("kinds %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Errorf("line %d kind %v, want %v", i, kinds[i], want[i])
		}
	}
}

func TestFilesNone(t *testing.T) {
	if f := Files([]wire.MessageWithParts{userWith()}); len(f) != 0 {
		t.Errorf("no diffs gave %+v", f)
	}
	if Lines("") != nil {
		t.Error("Lines of an empty patch")
	}
}
