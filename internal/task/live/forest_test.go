package live

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// TestForestIsTheWholeModel: the forest, which seals each history as it
// folds it in, says of every session what the model holding every history
// whole says (state, reason, tool counts, end), and adds up the same
// usage; it reads each history once and the todo list only of a session
// that called todowrite.
func TestForestIsTheWholeModel(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	sc := srv.AddShowcase()
	const planner = "ses_planner"
	srv.AddSession(wire.Session{ID: planner, Title: "plan it", Time: wire.SessionTime{Created: 5, Updated: 9}})
	todos := []wire.Todo{{Content: "a", Status: wire.TodoCompleted}, {Content: "b", Status: wire.TodoPending}}
	input, _ := json.Marshal(map[string]any{"todos": todos})
	srv.SetMessages(planner, []wire.MessageWithParts{
		{Info: wire.Message{ID: "msg_1", SessionID: planner, Role: "user", Time: wire.MessageTime{Created: 6}}},
		{Info: wire.Message{ID: "msg_2", SessionID: planner, Role: "assistant", Finish: "stop", Time: wire.MessageTime{Created: 7, Completed: 8}},
			Parts: []wire.Part{{ID: "prt_1", SessionID: planner, MessageID: "msg_2", Type: wire.PartTool, Tool: "todowrite",
				State: &wire.ToolState{Status: wire.ToolCompleted, Input: input, Time: wire.ToolTime{Start: 7, End: 8}}}}},
	})
	srv.SetTodos(planner, todos)
	// A run an abort cut, read before the server wrote its error: the
	// killed command is stored completed (1.18), the reply unfinished.
	const cut = "ses_cut"
	srv.AddSession(wire.Session{ID: cut, Title: "cut short", Time: wire.SessionTime{Created: 5, Updated: 9}})
	srv.SetMessages(cut, []wire.MessageWithParts{
		{Info: wire.Message{ID: "msg_1", SessionID: cut, Role: "user", Time: wire.MessageTime{Created: 6}}},
		{Info: wire.Message{ID: "msg_2", SessionID: cut, Role: "assistant", Time: wire.MessageTime{Created: 7}},
			Parts: []wire.Part{{ID: "prt_1", SessionID: cut, MessageID: "msg_2", Type: wire.PartTool, Tool: "bash",
				State: &wire.ToolState{Status: wire.ToolCompleted, Output: "<shell_metadata>\nUser aborted the command\n</shell_metadata>",
					Metadata: json.RawMessage(`{"exit":null}`), Time: wire.ToolTime{Start: 7, End: 8}}}}},
	})
	c, err := client.New(client.Options{BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	whole, history, _, err := LoadState(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	srv.ClearRequests()
	f, err := ReadForest(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	var todoReads, msgReads int
	for _, call := range srv.Calls() {
		switch {
		case strings.HasSuffix(call, "/todo"):
			todoReads++
			if call != "GET /session/"+planner+"/todo" {
				t.Errorf("read %s: it has no todowrite call", call)
			}
		case strings.HasSuffix(call, "/message"):
			msgReads++
		}
	}
	if todoReads != 1 || msgReads != whole.Len() {
		t.Errorf("%d todo reads, %d history reads for %d sessions", todoReads, msgReads, whole.Len())
	}
	seen := 0
	var check func(n *Node)
	check = func(n *Node) {
		seen++
		st, cs := whole.StateOf(n.ID), whole.Counts(n.ID)
		if want := (ToolCounts{Total: cs.Tools(), Running: cs.ToolsRunning, Completed: cs.ToolsDone, Failed: cs.ToolsFailed,
			Aborted: cs.ToolsAborted, Interrupted: cs.ToolsInterrupted}); n.Status != st.Kind.Status() || n.Tools != want {
			t.Errorf("%s: %s %+v, the whole model says %v %+v", n.ID, n.Status, n.Tools, st.Kind, cs)
		}
		if n.Status == "error" && (n.Reason != st.Reason || n.Error != st.Detail) {
			t.Errorf("%s: %s (%s), the whole model says %s (%s)", n.ID, n.Reason, n.Error, st.Reason, st.Detail)
		}
		if want := SessionUsage(wire.Session{}, history[n.ID], nil); n.Tokens != want.Tokens || n.TotalCost() != want.TotalCost() ||
			n.LastActivity != max(want.LastActivity, whole.Session(n.ID).Created) || n.FilesChanged != want.FilesChanged {
			t.Errorf("%s: usage %+v, its messages add up to %+v", n.ID, n.Usage, want)
		}
		var runs []model.Run
		for _, r := range n.Runs {
			runs = append(runs, model.Run(r))
		}
		if n.Ended != whole.Ended(n.ID) || !slices.Equal(runs, whole.Runs(n.ID)) {
			t.Errorf("%s: ended %d, runs %v; the whole model says %d, %v", n.ID, n.Ended, runs, whole.Ended(n.ID), whole.Runs(n.ID))
		}
		for _, k := range n.Children {
			check(k)
		}
	}
	err = f.Each(func(r *Node) error {
		check(r)
		if r.ID == planner && r.Todos != (TodoCounts{Total: 2, Done: 1}) {
			t.Errorf("todos %+v, want 1 of 2 done", r.Todos)
		}
		if r.ID == cut && (r.Reason != model.ReasonAborted || r.Tools != (ToolCounts{Total: 1, Aborted: 1})) {
			t.Errorf("the cut run: %s (%s), tools %+v; want aborted, its call aborted", r.Status, r.Reason, r.Tools)
		}
		return nil
	})
	if err != nil || seen != whole.Len() {
		t.Fatalf("%d nodes of %d sessions (%v)", seen, whole.Len(), err)
	}
	if k := whole.StateOf(sc.Failed).Kind; k != model.KindFailed {
		t.Fatalf("the showcase's failed session is %v", k)
	}
}

// TestForestFollowsBackgroundTasks: over a real 1.18.33 fan-out of three
// background children (one aborted, one completed, one failed), the
// forest, decoding only what the tree prints, says of every session what
// the model holding every history whole says.
func TestForestFollowsBackgroundTasks(t *testing.T) {
	dir := "../../../model/testdata/background/endings-A-"
	var rootMsgs []wire.MessageWithParts
	var kids []wire.Session
	readJSONFile(t, dir+"root-messages.json", &rootMsgs)
	readJSONFile(t, dir+"children.json", &kids)
	srv := opencodetest.New(t, opencodetest.Options{})
	root := rootMsgs[0].Info.SessionID
	srv.AddSession(wire.Session{ID: root, Title: "root", Time: wire.SessionTime{Created: 1, Updated: 2}})
	srv.SetMessages(root, rootMsgs)
	for i, k := range kids {
		k.Directory = ""
		srv.AddSession(k)
		var msgs []wire.MessageWithParts
		readJSONFile(t, dir+"child-worker"+string(rune('1'+i))+"-messages.json", &msgs)
		srv.SetMessages(k.ID, msgs)
	}
	c, err := client.New(client.Options{BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	whole, _, _, err := LoadState(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	roots, _, err := Tree(context.Background(), c)
	if err != nil || len(roots) != 1 || len(roots[0].Children) != 3 {
		t.Fatalf("tree %v (%v)", roots, err)
	}
	for _, n := range append([]*Node{roots[0]}, roots[0].Children...) {
		st, cs := whole.StateOf(n.ID), whole.Counts(n.ID)
		if n.Status != st.Kind.Status() || n.Reason != reasonOf(st) || n.Tools.Failed != cs.ToolsFailed || n.Tools.Completed != cs.ToolsDone {
			t.Errorf("%s: %s/%s %+v; the whole model says %v/%s %+v", n.ID, n.Status, n.Reason, n.Tools, st.Kind, st.Reason, cs)
		}
	}
	if whole.StateOf(root).Kind != model.KindComplete {
		t.Fatalf("the root is %v, want complete", whole.StateOf(root).Kind)
	}
}

// reasonOf is the reason a node carries for a state.
func reasonOf(st model.SessionState) string {
	if st.Kind.Status() == "error" || st.Kind == model.KindBackground {
		return st.Reason
	}
	return ""
}

func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}
