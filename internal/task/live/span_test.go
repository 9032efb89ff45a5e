package live

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestWorktreePaths(t *testing.T) {
	w := worktree{root: "/p"}
	for _, c := range [][3]string{
		{"/p/a/b.txt", "", "a/b.txt"}, {"b.txt", "/p/a", "a/b.txt"}, {"./x.txt", "/p", "x.txt"},
		{"/elsewhere/y", "", "/elsewhere/y"}, {"z.txt", "", "z.txt"},
	} {
		if got := w.rel(c[0], c[1]); got != c[2] {
			t.Errorf("rel(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

func TestToolFiles(t *testing.T) {
	var p spanPart
	raw := `{"type":"tool","tool":"apply_patch","state":{"input":{"patchText":"*** Begin Patch\n*** Update File: src/a.go\n@@\n*** Add File: /p/new.go\n*** Delete File: old.go\n*** Move to: src/b.go\n*** End Patch"},"metadata":{"filepath":"/p/src/a.go"}}}`
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		t.Fatal(err)
	}
	got := worktree{root: "/p"}.toolFiles(p, "/p")
	if want := []string{"src/a.go", "new.go", "old.go", "src/b.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("toolFiles = %v, want %v", got, want)
	}
	if !names(`sed -i s/x/y/ src/a.go`, "src/a.go") || !names("cat a.go", "src/a.go") || names("make", "src/a.go") {
		t.Error("names")
	}
}
