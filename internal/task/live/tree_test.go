package live

import (
	"context"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

func sess(id, parent string, created int64) wire.Session {
	return wire.Session{ID: id, ParentID: parent, Title: id, Time: wire.SessionTime{Created: created}}
}

func ids(ss []wire.Session) []string {
	out := []string{}
	for _, s := range ss {
		out = append(out, s.ID)
	}
	return out
}

func TestAbortOrder(t *testing.T) {
	// root ─┬─ a ─┬─ a1 ── a1x
	//       │     └─ a2
	//       └─ b
	// other ── o1       (outside the subtree, busy)
	sessions := []wire.Session{
		sess("root", "", 1), sess("a", "root", 2), sess("b", "root", 3),
		sess("a1", "a", 4), sess("a2", "a", 5), sess("a1x", "a1", 6),
		sess("other", "", 7), sess("o1", "other", 8),
	}
	busy := wire.SessionStatus{Type: wire.StatusBusy}
	retry := wire.SessionStatus{Type: wire.StatusRetry}
	tests := []struct {
		name   string
		status map[string]wire.SessionStatus
		root   string
		want   []string
	}{
		{"all busy, deepest first then self",
			map[string]wire.SessionStatus{"root": busy, "a": busy, "b": busy, "a1": busy, "a2": busy, "a1x": busy, "other": busy, "o1": busy},
			"root", []string{"a1x", "a1", "a2", "a", "b", "root"}},
		{"idle parents are skipped, retrying counts as running",
			map[string]wire.SessionStatus{"a1x": busy, "b": retry, "other": busy},
			"root", []string{"a1x", "b"}},
		{"a subtree below the root",
			map[string]wire.SessionStatus{"root": busy, "a": busy, "a1": busy, "a1x": busy, "b": busy},
			"a1", []string{"a1x", "a1"}},
		{"nothing runs",
			map[string]wire.SessionStatus{"other": busy, "o1": busy},
			"root", []string{}},
		{"a leaf",
			map[string]wire.SessionStatus{"b": busy},
			"b", []string{"b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ids(AbortOrder(sessions, tt.status, tt.root))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("AbortOrder(%s) = %v, want %v", tt.root, got, tt.want)
			}
		})
	}
}

// Parents that name each other (bad data no server sends) must not hang
// the plan or list a session twice; the model breaks the cycle, so which
// of the two counts as below the other is its choice, but the session
// asked for comes last.
func TestAbortOrderSurvivesACycle(t *testing.T) {
	sessions := []wire.Session{sess("x", "y", 1), sess("y", "x", 2)}
	status := map[string]wire.SessionStatus{"x": {Type: wire.StatusBusy}, "y": {Type: wire.StatusBusy}}
	for _, root := range []string{"x", "y"} {
		got := ids(AbortOrder(sessions, status, root))
		if len(got) == 0 || len(got) > 2 || got[len(got)-1] != root || (len(got) == 2 && got[0] == got[1]) {
			t.Errorf("AbortOrder(%s) on a cycle = %v, want at most the other one, then %s", root, got, root)
		}
	}
}

func TestBuildTree(t *testing.T) {
	nodes := []*Node{
		{ID: "c2", ParentID: "r1", Created: 5},
		{ID: "r1", Created: 1},
		{ID: "c1", ParentID: "r1", Created: 3},
		{ID: "r2", Created: 9},
		{ID: "orphan", ParentID: "gone", Created: 4},
	}
	roots := BuildTree(nodes)
	var got []string
	for _, r := range roots {
		got = append(got, r.ID)
	}
	if want := []string{"r2", "orphan", "r1"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("roots = %v, want %v (newest first, orphans as roots)", got, want)
	}
	r1 := roots[2]
	if len(r1.Children) != 2 || r1.Children[0].ID != "c1" || r1.Children[1].ID != "c2" {
		t.Errorf("r1 children = %+v, want c1 then c2 (creation order)", r1.Children)
	}
}

func TestTaskAgents(t *testing.T) {
	agents := []wire.Agent{
		{Name: "build", Mode: "primary"},
		{Name: "general", Mode: "subagent"},
		{Name: "both", Mode: "all"},
		{Name: "secret", Mode: "subagent", Hidden: true},
	}
	var got []string
	for _, a := range TaskAgents(agents) {
		got = append(got, a.Name)
	}
	if want := []string{"general", "both"}; !reflect.DeepEqual(got, want) {
		t.Errorf("TaskAgents = %v, want %v", got, want)
	}
}

// LoadTrees reads the messages of the subtrees asked for and no others,
// and still knows every session.
func TestLoadTreesReadsOnlyTheSubtrees(t *testing.T) {
	f, c := newFake(t)
	f.add(wire.Session{ID: "ses_child", ParentID: "ses_parent", Title: "child"})
	f.add(wire.Session{ID: "ses_grand", ParentID: "ses_child", Title: "grandchild"})
	f.add(wire.Session{ID: "ses_other", Title: "another root"})
	f.ClearRequests()
	st, history, _, err := LoadTrees(context.Background(), c, []string{"ses_parent"})
	if err != nil {
		t.Fatal(err)
	}
	var read []string
	for _, call := range f.Calls() {
		if strings.HasSuffix(call, "/message") {
			read = append(read, call)
		}
	}
	sort.Strings(read)
	want := []string{"GET /session/ses_child/message", "GET /session/ses_grand/message", "GET /session/ses_parent/message"}
	if !reflect.DeepEqual(read, want) {
		t.Errorf("read %v, want %v", read, want)
	}
	if len(history) != 3 || st.Session("ses_other") == nil || st.HasHistory("ses_other") {
		t.Errorf("history of %d sessions, other root known: %v", len(history), st.Session("ses_other") != nil)
	}
}
