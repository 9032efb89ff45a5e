package live

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

const dir = opencodetest.DefaultDirectory

// fanout is a fan-out as a real server records it (times in ms): root P
// gave children A (write tool on out-a.txt) and B (bash appending to
// out-b.txt) steps that overlapped, so every patch part lists both files.
// U is an unrelated session waiting in a step meanwhile (its patch lists
// out-b.txt, which B's command explains); Q an unrelated session whose
// step saw out-a.txt change with no call explaining it.
func fanout(t *testing.T, version string) (*opencodetest.Server, *client.Client) {
	srv := opencodetest.New(t, opencodetest.Options{Version: version})
	at := func(c, u int64) wire.SessionTime { return wire.SessionTime{Created: c, Updated: u} }
	srv.AddSession(wire.Session{ID: "ses_P", Title: "root", Time: at(100, 200)})
	srv.AddSession(wire.Session{ID: "ses_A", ParentID: "ses_P", Title: "worker a", Time: at(110, 190)})
	srv.AddSession(wire.Session{ID: "ses_B", ParentID: "ses_P", Title: "worker b", Time: at(112, 190)})
	srv.AddSession(wire.Session{ID: "ses_U", Title: "unrelated", Time: at(50, 180)})
	srv.AddSession(wire.Session{ID: "ses_Q", Title: "builder", Time: at(60, 185)})
	srv.AddSession(wire.Session{ID: "ses_old", Title: "old", Time: at(10, 20)})
	both := []string{dir + "/out-a.txt", dir + "/out-b.txt"}
	srv.SetMessages("ses_P", []wire.MessageWithParts{user("ses_P", "msg_p0", 100, nil), asst("ses_P", "msg_p1", 101, 160, tool("task", `{}`, 102))})
	srv.AddPatch("ses_P", opencodetest.Patch{MessageID: "msg_p1", Hash: "h0", Files: both})
	srv.SetMessages("ses_A", []wire.MessageWithParts{
		user("ses_A", "msg_a0", 110, []wire.FileDiff{{File: "out-a.txt", Additions: 2, Status: "added"}, {File: "out-b.txt", Additions: 1}}),
		asst("ses_A", "msg_a1", 111, 130, tool("write", `{"filePath":"out-a.txt"}`, 120)),
		asst("ses_A", "msg_a2", 131, 150, tool("write", `{"filePath":"`+dir+`/out-a.txt"}`, 140))})
	srv.AddPatch("ses_A", opencodetest.Patch{MessageID: "msg_a1", Hash: "h0", Files: both})
	srv.AddPatch("ses_A", opencodetest.Patch{MessageID: "msg_a2", Hash: "h1", Files: both[:1]})
	srv.SetMessages("ses_B", []wire.MessageWithParts{
		user("ses_B", "msg_b0", 112, []wire.FileDiff{{File: "out-b.txt", Additions: 1, Status: "added"}}),
		asst("ses_B", "msg_b1", 113, 135, tool("bash", `{"command":"echo x >> out-b.txt"}`, 125))})
	srv.AddPatch("ses_B", opencodetest.Patch{MessageID: "msg_b1", Hash: "h0", Files: both})
	srv.SetMessages("ses_U", []wire.MessageWithParts{asst("ses_U", "msg_u1", 115, 170, tool("read", `{"filePath":"x"}`, 116))})
	srv.AddPatch("ses_U", opencodetest.Patch{MessageID: "msg_u1", Hash: "h0", Files: both[1:]})
	srv.SetMessages("ses_Q", []wire.MessageWithParts{asst("ses_Q", "msg_q1", 150, 160, tool("bash", `{"command":"make"}`, 151))})
	srv.AddPatch("ses_Q", opencodetest.Patch{MessageID: "msg_q1", Hash: "h2", Files: both[:1]})
	srv.SetFileLines("out-a.txt", 2)
	c, err := client.New(client.Options{BaseURL: srv.URL(), Timeout: testwait.Scale(5 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

func user(sid, id string, at int64, diffs []wire.FileDiff) wire.MessageWithParts {
	m := wire.MessageWithParts{Info: wire.Message{ID: id, SessionID: sid, Role: "user", Time: wire.MessageTime{Created: at}}}
	if diffs != nil {
		m.Info.Summary = &wire.MessageSummary{Diffs: diffs}
	}
	return m
}

func asst(sid, id string, from, to int64, parts ...wire.Part) wire.MessageWithParts {
	for i := range parts {
		parts[i].SessionID, parts[i].MessageID = sid, id
	}
	return wire.MessageWithParts{Info: wire.Message{ID: id, SessionID: sid, Role: "assistant",
		Time: wire.MessageTime{Created: from, Completed: to}}, Parts: parts}
}

func tool(name, input string, at int64) wire.Part {
	return wire.Part{ID: "prt_" + name, Type: "tool", Tool: name, State: &wire.ToolState{Status: "completed",
		Input: json.RawMessage(input), Time: wire.ToolTime{Start: at, End: at + 1}}}
}

func changedBy(f task.UndoFile) map[string]bool {
	out := map[string]bool{}
	for _, c := range f.AlsoChangedBy {
		out[c.SessionID] = c.Sure
	}
	return out
}

// TestPlanUndoChild: undoing A restores both files (its patch parts list
// B's file too); out-b.txt is B's (its command names it, so it may have
// changed it), out-a.txt was seen changing in Q's step with no call to
// explain it. The root P, waiting on A, and U, whose change B's command
// explains, are not named.
func TestPlanUndoChild(t *testing.T) {
	srv, c := fanout(t, opencodetest.V118)
	p, err := PlanUndo(context.Background(), c, "ses_A", "")
	if err != nil {
		t.Fatal(err)
	}
	if p.To != "msg_a0" || p.Since != 110 || len(p.Steps) != 1 || p.Steps[0].Session.ID != "ses_A" {
		t.Fatalf("plan %+v", p)
	}
	if len(p.Files) != 2 || p.Files[0].Path != "out-a.txt" || p.Files[1].Path != "out-b.txt" {
		t.Fatalf("files %+v", p.Files)
	}
	if f := p.Files[0]; f.Additions != 2 || !f.Counted || !reflect.DeepEqual(changedBy(f), map[string]bool{"ses_Q": false}) {
		t.Errorf("out-a.txt %+v", f)
	}
	if f := p.Files[1]; !reflect.DeepEqual(changedBy(f), map[string]bool{"ses_B": false}) {
		t.Errorf("out-b.txt %+v", f)
	}
	if got := p.OtherIDs(); !reflect.DeepEqual(got, []string{"ses_Q", "ses_B"}) {
		t.Errorf("others %v", got)
	}
	if m := srv.Mutations(); len(m) != 0 {
		t.Errorf("a plan sent %v", m)
	}
}

// TestUndoRefusesWithoutConsent: nothing is sent unless every session
// whose work goes is named, and then the revert restores what the preview
// said.
func TestUndoRefusesWithoutConsent(t *testing.T) {
	srv, c := fanout(t, opencodetest.V118)
	ctx := context.Background()
	p, _ := PlanUndo(ctx, c, "ses_A", "")
	if _, err := Undo(ctx, c, p, []string{"ses_B"}); !errors.Is(err, task.ErrOthersWork) {
		t.Fatalf("undo without Q's consent: %v", err)
	}
	if m := srv.Mutations(); len(m) != 0 {
		t.Fatalf("refused undo sent %v", m)
	}
	res, err := Undo(ctx, c, p, p.OtherIDs())
	if err != nil {
		t.Fatal(err)
	}
	if m := srv.Mutations(); !reflect.DeepEqual(m, []string{"POST /session/ses_A/revert"}) {
		t.Errorf("sent %v", m)
	}
	if !res.Check.OK() || len(res.Restored) != 2 {
		t.Errorf("check %+v restored %+v", res.Check, res.Restored)
	}
}

// TestUndoParentTakesItsSubtree: the children are reverted first, the
// latest started first, then the parent; redo unreverts in the reverse
// order, the latest undone first.
func TestUndoParentTakesItsSubtree(t *testing.T) {
	srv, c := fanout(t, opencodetest.V118)
	ctx := context.Background()
	p, err := PlanUndo(ctx, c, "ses_P", "")
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, st := range p.Steps {
		order = append(order, st.Session.ID+"@"+st.To)
	}
	if want := []string{"ses_B@msg_b0", "ses_A@msg_a0", "ses_P@msg_p0"}; !reflect.DeepEqual(order, want) {
		t.Fatalf("steps %v, want %v", order, want)
	}
	if got := p.OtherIDs(); !reflect.DeepEqual(got, []string{"ses_Q"}) {
		t.Errorf("others %v", got)
	}
	if _, err := Undo(ctx, c, p, p.OtherIDs()); err != nil {
		t.Fatal(err)
	}
	want := []string{"POST /session/ses_B/revert", "POST /session/ses_A/revert", "POST /session/ses_P/revert"}
	if m := srv.Mutations(); !reflect.DeepEqual(m, want) {
		t.Fatalf("sent %v", m)
	}
	r, err := PlanRedo(ctx, c, "ses_P")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Others) != 0 || len(r.Files) != 2 {
		t.Errorf("redo plan others %v files %+v", r.Others, r.Files)
	}
	if _, err := Redo(ctx, c, r, nil); err != nil {
		t.Fatal(err)
	}
	want = append(want, "POST /session/ses_P/unrevert", "POST /session/ses_A/unrevert", "POST /session/ses_B/unrevert")
	if m := srv.Mutations(); !reflect.DeepEqual(m, want) {
		t.Fatalf("sent %v", m)
	}
	if _, err := PlanRedo(ctx, c, "ses_P"); !errors.Is(err, task.ErrNotReverted) {
		t.Errorf("a second redo: %v", err)
	}
}

// TestRedoNamesChangesSinceTheUndo: a session that wrote after the undo
// would lose its change to the unrevert's snapshot: redo refuses it
// unless it is named.
func TestRedoNamesChangesSinceTheUndo(t *testing.T) {
	srv, c := fanout(t, opencodetest.V118)
	ctx := context.Background()
	p, _ := PlanUndo(ctx, c, "ses_A", "")
	if _, err := Undo(ctx, c, p, p.OtherIDs()); err != nil {
		t.Fatal(err)
	}
	undoneAt, _ := srv.Session("ses_A")
	later := undoneAt.Time.Updated + 10
	srv.AddSession(wire.Session{ID: "ses_R", Title: "later", Time: wire.SessionTime{Created: later, Updated: later + 5}})
	srv.SetMessages("ses_R", []wire.MessageWithParts{asst("ses_R", "msg_r1", later, later+3, tool("edit", `{"filePath":"out-c.txt"}`, later+1))})
	r, err := PlanRedo(ctx, c, "ses_A")
	if err != nil {
		t.Fatal(err)
	}
	if got := r.OtherIDs(); !reflect.DeepEqual(got, []string{"ses_R"}) {
		t.Fatalf("others %v (files %+v)", got, r.Files)
	}
	before := len(srv.Mutations())
	if _, err := Redo(ctx, c, r, nil); !errors.Is(err, task.ErrOthersWork) {
		t.Fatalf("redo: %v", err)
	}
	if len(srv.Mutations()) != before {
		t.Error("a refused redo sent something")
	}
}

// TestUndoBusy: a running session of the undo is refused before anything
// is sent, and each version's own refusal reads as busy.
func TestUndoBusy(t *testing.T) {
	for _, v := range []string{opencodetest.V118, opencodetest.V11} {
		srv, c := fanout(t, v)
		srv.SetStatus("ses_A", wire.SessionStatus{Type: wire.StatusBusy})
		ctx := context.Background()
		p, err := PlanUndo(ctx, c, "ses_P", "")
		if err != nil || len(p.Busy) != 1 || p.Busy[0].ID != "ses_A" {
			t.Fatalf("%s: plan %+v %v", v, p.Busy, err)
		}
		if _, err := Undo(ctx, c, p, p.OtherIDs()); !errors.Is(err, task.ErrBusy) {
			t.Errorf("%s: undo %v", v, err)
		}
		if m := srv.Mutations(); len(m) != 0 {
			t.Errorf("%s: sent %v", v, m)
		}
		if _, err := c.Revert(ctx, "ses_A", client.RevertRequest{MessageID: "msg_a0"}); !client.IsBusy(err) {
			t.Errorf("%s: the server's refusal %v is not busy", v, err)
		}
	}
}

// TestUndoPointChecked: --to must be a message of the session.
func TestUndoPointChecked(t *testing.T) {
	_, c := fanout(t, opencodetest.V118)
	ctx := context.Background()
	for _, to := range []string{"xyz", "msg_b1"} {
		if _, err := PlanUndo(ctx, c, "ses_A", to); !errors.Is(err, task.ErrInvalid) {
			t.Errorf("to %q: %v", to, err)
		}
	}
	p, err := PlanUndo(ctx, c, "ses_A", "msg_a2")
	if err != nil || p.Since != 131 || len(p.Files) != 1 || p.Files[0].Path != "out-a.txt" {
		t.Errorf("from msg_a2: %+v %v", p.Files, err)
	}
}

// TestMergeStats: reverts one after another add up their lines on a file.
func TestMergeStats(t *testing.T) {
	got, touched := mergeStats([][]wire.DiffStat{
		{{Path: "a", Deletions: 2, Status: "modified"}, {Path: "b", Additions: 1, Status: "modified"}},
		{{Path: "a", Deletions: 1, Status: "deleted"}}, {}})
	want := []wire.DiffStat{{Path: "a", Deletions: 3, Status: "deleted"}, {Path: "b", Additions: 1, Status: "modified"}}
	if !reflect.DeepEqual(got, want) || touched["a"] != 2 || touched["b"] != 1 {
		t.Errorf("mergeStats = %+v %v, want %+v", got, touched, want)
	}
	files := []task.UndoFile{{Path: "a", Additions: 9, Counted: true}, {Path: "b", Deletions: 2, Counted: true}}
	if c := checkUndo(files, got, touched, false); len(c.Counts) != 1 || !strings.HasPrefix(c.Counts[0], "b:") {
		t.Errorf("check %+v: want only b's lines compared", c)
	}
}

// TestPlanUndoSaysWhatTheServerDidNotRecord: a session whose write call
// changed a file the server kept no snapshot of (1.1.65 may leave a step
// unrecorded) gets a plan naming that file as not restorable, not one
// saying the steps changed no file; a file its patches name is not in it.
func TestPlanUndoSaysWhatTheServerDidNotRecord(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{Version: opencodetest.V118})
	srv.AddSession(wire.Session{ID: "ses_W", Title: "writer", Time: wire.SessionTime{Created: 100, Updated: 200}})
	srv.SetMessages("ses_W", []wire.MessageWithParts{user("ses_W", "msg_w0", 100, nil),
		asst("ses_W", "msg_w1", 101, 130, tool("write", `{"filePath":"lost.txt"}`, 110)),
		asst("ses_W", "msg_w2", 131, 150, tool("edit", `{"filePath":"kept.txt"}`, 140))})
	srv.AddPatch("ses_W", opencodetest.Patch{MessageID: "msg_w2", Hash: "h1", Files: []string{dir + "/kept.txt"}})
	c, err := client.New(client.Options{BaseURL: srv.URL(), Timeout: testwait.Scale(5 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	p, err := PlanUndo(context.Background(), c, "ses_W", "")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Unrecorded, []string{"lost.txt"}) {
		t.Errorf("unrecorded %q, want [lost.txt]", p.Unrecorded)
	}
	if len(p.Files) != 1 || p.Files[0].Path != "kept.txt" {
		t.Errorf("files %+v, want kept.txt alone", p.Files)
	}
}
