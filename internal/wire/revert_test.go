package wire

import (
	"reflect"
	"testing"
)

// A revert's diff as 1.18.33 sends it: no newline after the last line.
const revertDiff = "diff --git a/out-w0.txt b/out-w0.txt\ndeleted file mode 100644\nindex fab2db1..0000000\n--- a/out-w0.txt\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-out-w0.txt line 1\n-out-w0.txt line 2\n-out-w0.txt line 3\n" +
	"diff --git a/out-busy.txt b/out-busy.txt\nindex 7e171ed..76461b5 100644\n--- a/out-busy.txt\n+++ b/out-busy.txt\n@@ -1,4 +1,2 @@\n out-busy.txt line 1\n out-busy.txt line 2\n-out-busy.txt line 3\n-out-busy.txt line 4"

func TestDiffStats(t *testing.T) {
	got, ok := DiffStats(revertDiff)
	want := []DiffStat{{Path: "out-w0.txt", Deletions: 3, Status: "deleted"}, {Path: "out-busy.txt", Deletions: 2, Status: "modified"}}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("DiffStats = %+v, %v; want %+v", got, ok, want)
	}
	if got, ok := DiffStats(""); got != nil || !ok {
		t.Errorf("empty diff = %+v, %v", got, ok)
	}
	added := "diff --git a/n.txt b/n.txt\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+x"
	if got, _ := DiffStats(added); len(got) != 1 || got[0] != (DiffStat{Path: "n.txt", Additions: 1, Status: "added"}) {
		t.Errorf("added file = %+v", got)
	}
	if _, ok := DiffStats("diff --git a/x b/x\n@@ -1,5 +1,5 @@\n-a\n"); ok {
		t.Error("a cut hunk read as whole")
	}
}
