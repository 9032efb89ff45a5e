package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

func node(id string, kids ...*live.Node) *live.Node {
	return &live.Node{ID: id, Status: "complete", Title: "t " + id, Children: kids}
}

// TestTreeGuides: the tree's guides show which ancestors have siblings
// still to come.
func TestTreeGuides(t *testing.T) {
	var b bytes.Buffer
	printNode(&b, node("root", node("a", node("a1", node("a1x")), node("a2")), node("b")))
	want := `root  complete  tools:0  t root
├─ a  complete  tools:0  t a
│  ├─ a1  complete  tools:0  t a1
│  │  └─ a1x  complete  tools:0  t a1x
│  └─ a2  complete  tools:0  t a2
└─ b  complete  tools:0  t b
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestIndentCapped: within the cap, printJSON indents exactly as
// json.Indent; past it, levels stay at the cap's indent.
func TestIndentCapped(t *testing.T) {
	v := map[string]any{"a": []any{}, "b": map[string]any{}, "c": []any{1, "x\"y\\}", map[string]any{"d": nil, "e": []any{true}}}, "f": "}{,:["}
	b, _ := json.Marshal(v)
	var want, got bytes.Buffer
	_ = json.Indent(&want, b, "", "  ")
	indentCapped(&got, b, 100, 0)
	if got.String() != want.String() {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want.String())
	}
	got.Reset()
	indentCapped(&got, []byte(`[[[[1]]]]`), 2, 0)
	if want := "[\n  [\n    [\n    [\n    1\n    ]\n    ]\n  ]\n]"; got.String() != want {
		t.Errorf("capped at 2: got\n%s\nwant\n%s", got.String(), want)
	}
}

// TestTreeDeepChain: a chain of 2,000 sessions, each the child of the one
// before, prints in output linear in its length, as text and as JSON
// (indented JSON used to grow with the depth squared: 418 MB for this
// chain, 1.5 GB of memory).
func TestTreeDeepChain(t *testing.T) {
	const n = 2000
	srv := opencodetest.New(t, opencodetest.Options{})
	parent := ""
	for i := range n {
		id := fmt.Sprintf("ses_%06d", i)
		srv.AddSession(wire.Session{ID: id, ParentID: parent, Title: "step " + id,
			Time: wire.SessionTime{Created: int64(1000 + i), Updated: int64(1000 + i)}})
		parent = id
	}
	base := client.Options{BaseURL: srv.URL()}
	code, out, errs := run(t, base, "", "tree", "--json")
	if code != 0 {
		t.Fatalf("tree --json: exit %d: %s", code, errs)
	}
	if len(out) > 5<<10*n {
		t.Errorf("tree --json printed %d bytes for %d sessions: more than 5 KiB each", len(out), n)
	}
	var roots []*live.Node
	if err := json.Unmarshal([]byte(out), &roots); err != nil {
		t.Fatalf("tree --json is not JSON: %v", err)
	}
	depth := 0
	for ns := roots; len(ns) == 1; ns = ns[0].Children {
		depth++
	}
	if depth != n {
		t.Errorf("the JSON chain is %d deep, want %d", depth, n)
	}
	code, out, errs = run(t, base, "", "tree")
	if code != 0 {
		t.Fatalf("tree: exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != n {
		t.Fatalf("tree printed %d lines, want %d", len(lines), n)
	}
	for _, l := range lines {
		if len(l) > 200 {
			t.Fatalf("a line of %d bytes: the guides grow with the depth: %.120s…", len(l), l)
		}
	}
	if last := lines[n-1]; !strings.HasPrefix(last, "… ") || !strings.Contains(last, fmt.Sprintf("ses_%06d", n-1)) {
		t.Errorf("the deepest line = %q", last)
	}
}

// TestJSONArrayIsPrintJSON: written one element at a time, an array is
// byte for byte what printJSON writes of it whole, empty, deep past the
// indent cap, or holding what the sanitizer escapes.
func TestJSONArrayIsPrintJSON(t *testing.T) {
	deep := any(1)
	for range 40 {
		deep = []any{deep}
	}
	for _, list := range [][]any{
		{},
		{map[string]any{"id": "ses_a", "children": []any{}}},
		{map[string]any{"title": "a\x1b[31mred\u202e", "n": 1.5}, "x", deep, []any{}},
	} {
		var whole, each bytes.Buffer
		if err := printJSON(&whole, list); err != nil {
			t.Fatal(err)
		}
		a := newJSONArray(&each)
		for _, v := range list {
			if err := a.add(v); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.close(); err != nil {
			t.Fatal(err)
		}
		if each.String() != whole.String() {
			t.Errorf("one at a time:\n%s\nwhole:\n%s", each.String(), whole.String())
		}
	}
}

// TestNodeJSONIsMarshal: nodeJSON writes a tree byte for byte as
// json.Marshal does (so live.Node's children must stay its last field).
func TestNodeJSONIsMarshal(t *testing.T) {
	leaf := &live.Node{ID: "ses_c", Title: "c\x1b", Status: "complete", Children: []*live.Node{}}
	nochildren := &live.Node{ID: "ses_d"}
	tree := &live.Node{Server: "http://h", ID: "ses_a", Title: "a", Status: "running", Reason: "background",
		Subtree: &live.Usage{}, Children: []*live.Node{
			{ID: "ses_b", ParentID: "ses_a", Children: []*live.Node{leaf, nochildren}},
			{ID: "ses_e", ParentID: "ses_a", Children: []*live.Node{}},
		}}
	for _, n := range []*live.Node{tree, leaf, nochildren} {
		want, err := json.Marshal(n)
		if err != nil {
			t.Fatal(err)
		}
		got, err := nodeJSON(n)
		if err != nil || string(got) != string(want) {
			t.Errorf("nodeJSON = %s, %v\nwant %s", got, err, want)
		}
	}
}

// TestNodeJSONOfADeepChain: a chain far deeper than the stack could hold
// a level of json.Marshal per session is written (with the stack held to
// 8 MiB, json.Marshal of this chain would end the program).
func TestNodeJSONOfADeepChain(t *testing.T) {
	const n = 200_000
	root := &live.Node{ID: "ses_0"}
	cur := root
	for range n {
		next := &live.Node{ID: "ses_x", Children: []*live.Node{}}
		cur.Children = []*live.Node{next}
		cur = next
	}
	defer debug.SetMaxStack(debug.SetMaxStack(8 << 20))
	b, err := nodeJSON(root)
	if err != nil {
		t.Fatal(err)
	}
	if got := bytes.Count(b, []byte(`"id":"ses_x"`)); got != n {
		t.Errorf("%d nodes written, want %d", got, n)
	}
	var out bytes.Buffer
	a := newJSONArray(&out)
	if err := a.addJSON(b); err != nil {
		t.Fatal(err)
	}
	if err := a.close(); err != nil || !bytes.HasSuffix(out.Bytes(), []byte("]\n")) {
		t.Errorf("printing it: %v", err)
	}
}
