package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/testkit/fakellm"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/wire"
)

// undoTarget is the child of a fan-out whose undo would take its
// sibling's work too: the one whose preview marks the other's file with
// the other's id. Both ran at once, so at least one span holds the
// other's writes; which one depends on how their steps fell.
func undoTarget(t *testing.T, url string, kids [2]wire.Session, files [2]string) (child, sibling int, p undoPreview) {
	t.Helper()
	for i := range kids {
		p := undoPreviewOf(t, url, kids[i].ID)
		for _, f := range p.Files {
			if f.Path == files[1-i] && slices.Contains(f.AlsoChangedBy, kids[1-i].ID) {
				return i, 1 - i, p
			}
		}
	}
	t.Fatalf("neither child's undo marks the other's file: the two runs did not overlap")
	return 0, 0, undoPreview{}
}

// treeRow is the tree pane's part of the row that shows text (rowOf's
// line also holds the detail pane, which may name the same session).
func treeRow(screen, text string) string {
	for i, l := range strings.Split(screen, "\n") {
		if tree, _, _ := strings.Cut(l, "│"); i >= 2 && strings.Contains(tree, text) {
			return tree
		}
	}
	return ""
}

// TestTUIUndoRedo drives u and U in a real terminal on a fan-out whose
// two children wrote their files at once: the preview marks the
// sibling's file with the sibling's id; the first yes only asks again,
// naming the sibling, and sends nothing; the second undoes, and the
// files the server says it restored are the preview's, changed in the
// worktree as it says (the child's own file gone); the row shows
// `↶ undone`; U brings every file back and the mark goes.
func TestTUIUndoRedo(t *testing.T) {
	parallel(t)
	tuiRequireTmux(t)
	s := harness.Start(t, harness.Config{Version: harness.V118})
	c := actNewClient(t, s)
	defer actStopAll(c)
	files := [2]string{"tui-w0.txt", "tui-w1.txt"}
	_, w0, w1 := runFanout(t, s, c, files[0], files[1], false)
	kids := [2]wire.Session{w0, w1}
	i, j, preview := undoTarget(t, s.URL, kids, files)
	child, sib := kids[i], kids[j]
	title := strings.TrimSuffix(child.Title, " (@general subagent)")

	tm := tuiStart(t, 160, 48, "--server", s.URL)
	tm.waitFor("both children in the tree", func(sc string) bool {
		return strings.Contains(sc, "● connected") && strings.Contains(sc, "worker 1 @general") && strings.Contains(sc, "worker 2 @general")
	})
	// The rows: root, worker 1, worker 2.
	tm.actSend(slices.Repeat([]string{"j"}, i+1)...)
	tm.waitFor("the child selected", func(sc string) bool { return strings.Contains(actHeader(sc), title) })

	tm.actSend("u")
	tm.waitFor("the preview, the sibling's file marked with its id", func(sc string) bool {
		return strings.Contains(sc, "Undo "+title+" @general?") && strings.Contains(sc, files[i]) && strings.Contains(sc, files[j]) &&
			strings.Contains(sc, "! also changed by "+sib.ID)
	})
	tm.actSend("y")
	tm.waitFor("the second confirmation, naming the sibling", func(sc string) bool {
		return strings.Contains(sc, "This also undoes the work of "+sib.ID)
	})
	if revertedIn(t, s.URL, child.ID) {
		t.Fatal("the first yes undid the child")
	}
	wantFile(t, s, files[0], 3)
	wantFile(t, s, files[1], 3)

	tm.actSend("y")
	sc := tm.waitFor("what the undo restored", func(sc string) bool { return strings.Contains(sc, "undone "+child.ID) })
	if strings.Contains(sc, "differs from the preview") {
		t.Errorf("the server's account differs from the preview:\n%s", sc)
	}
	tm.waitFor("the row marked undone", func(sc string) bool { return strings.Contains(treeRow(sc, title+" @general"), "↶ undone") })
	node := treeNode(t, s.URL, child.ID)
	if node.Reverted == nil {
		t.Fatal("tree --json has no revert on the undone child")
	}
	var listed []string
	for _, f := range preview.Files {
		listed = append(listed, f.Path)
	}
	restored := slices.Clone(node.Reverted.Files)
	slices.Sort(listed)
	slices.Sort(restored)
	if !slices.Equal(restored, listed) {
		t.Errorf("the server restored %v, the preview listed %v", restored, listed)
	}
	for _, name := range files {
		got, there := fileLines(t, s, name)
		if changed := got != fakellm.EditContent(name, 3); changed != slices.Contains(restored, name) {
			t.Errorf("%s: restored by the server's word %v, changed in the worktree %v (%q)", name, !changed, changed, got)
		}
		if name == files[i] && there {
			t.Errorf("the child's own file %s is still there: %q", name, got)
		}
	}

	tm.actSend("U")
	tm.waitFor("the redo's preview", func(sc string) bool {
		return strings.Contains(sc, "Redo "+title+" @general?") && strings.Contains(sc, "brings back")
	})
	tm.actSend("y")
	tm.waitFor("the redo done", func(sc string) bool { return strings.Contains(sc, "redone "+child.ID) })
	wantFile(t, s, files[0], 3)
	wantFile(t, s, files[1], 3)
	tm.waitFor("the mark gone", func(sc string) bool {
		row := treeRow(sc, title+" @general")
		return row != "" && !strings.Contains(row, "↶ undone")
	})
}
