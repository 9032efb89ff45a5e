package model

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// The fixtures under testdata/background are what real 1.18.33 servers
// said (OPENCODE_EXPERIMENTAL_BACKGROUND_SUBAGENTS=1, the scripted fake
// model), captured for issue 21.

func readJSON[T any](t *testing.T, path string) T {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// A 2-child background fan-out, event by event: the root is running,
// then waiting on its 2 background tasks while idle (its task calls
// running), then on 1, and done only once it answered the last notice.
func TestBackgroundFanoutReplay(t *testing.T) {
	evs := decodeAll(t, readSSE(t, "testdata/background/fanout-1.18.33.sse"))
	s := New()
	root := ""
	var kinds []string
	sawTwo := false
	for i, ev := range evs {
		s.Apply(ev)
		if c, ok := ev.(wire.SessionCreated); ok && root == "" {
			root = c.Info.ID
		}
		if root == "" {
			continue
		}
		st := s.StateOf(root)
		if w := st.Kind.String(); len(kinds) == 0 || kinds[len(kinds)-1] != w {
			kinds = append(kinds, w)
		}
		if st.Kind == KindComplete && i < len(evs)-5 {
			t.Fatalf("event %d of %d: root complete while its background tasks run", i, len(evs))
		}
		if st.Kind == KindBackground && st.Detail == "waiting on 2 background tasks" {
			// Both run, or one has ended and its notice is on its way.
			c := s.Counts(root)
			sawTwo = sawTwo || c.ToolsRunning == 2
			if c.ToolsRunning+c.ToolsDone != 2 || c.ToolsRunning == 0 {
				t.Errorf("root waiting on 2: tools %+v", c)
			}
			if rs := s.Session(root); rs.Run() != wire.StatusIdle {
				t.Errorf("root waiting on its background tasks has run %q, want idle", rs.Run())
			}
		}
	}
	// The second child ends while the root answers the first notice: the
	// root stays busy (the server queues the notice).
	want := "idle,running,waiting on background tasks,running,complete"
	if got := strings.Join(kinds, ","); got != want {
		t.Errorf("root went %s, want %s", got, want)
	}
	if !sawTwo {
		t.Error("never saw the root idle with its 2 background tasks running")
	}
	rs := s.Session(root)
	if c := s.Counts(root); c.ToolsDone != 2 || c.ToolsRunning != 0 {
		t.Errorf("at the end: tools %+v, want 2 done", c)
	}
	for i := range rs.Tools {
		if !rs.Tools[i].Background || rs.Tools[i].ChildID == "" {
			t.Errorf("call %d: background %v child %q", i, rs.Tools[i].Background, rs.Tools[i].ChildID)
		}
	}
	// The notices are not replies, and the run began at the prompt.
	if rs.LastText() == "" || strings.HasPrefix(rs.LastText(), "<task") {
		t.Errorf("last text %q", rs.LastText())
	}
	if rs.RunStart != 1795625756293 {
		t.Errorf("run start %d, want the prompt's 1795625756293", rs.RunStart)
	}
}

// loadEndings folds the endings capture in: one background child aborted
// (no notice), one completed, one failed (an error notice).
func loadEndings(t *testing.T) (*State, string, []wire.Session) {
	dir := "testdata/background/endings-A-"
	rootMsgs := readJSON[[]wire.MessageWithParts](t, dir+"root-messages.json")
	kids := readJSON[[]wire.Session](t, dir+"children.json")
	root := rootMsgs[0].Info.SessionID
	msgs := map[string][]wire.MessageWithParts{root: rootMsgs}
	sessions := []wire.Session{{ID: root, Title: "root", Time: wire.SessionTime{Created: 1, Updated: 2}}}
	for i, k := range kids {
		sessions = append(sessions, k)
		msgs[k.ID] = readJSON[[]wire.MessageWithParts](t, dir+"child-worker"+string(rune('1'+i))+"-messages.json")
	}
	s := New()
	s.ApplySnapshot(Snapshot{Sessions: sessions, Complete: true, Messages: msgs})
	return s, root, kids
}

func TestBackgroundEndings(t *testing.T) {
	s, root, kids := loadEndings(t)
	if st := s.StateOf(root); st.Kind != KindComplete {
		t.Errorf("root %v (%s), want complete: every child ended, every notice answered", st.Kind, st.Detail)
	}
	rs := s.Session(root)
	// The aborted child's call is aborted (■), never an error or ✓.
	want := map[string]ToolStatus{kids[0].ID: ToolAborted, kids[1].ID: ToolCompleted, kids[2].ID: ToolError}
	for i := range rs.Tools {
		t.Logf("%s → %v (child %v)", rs.Tools[i].ChildID, rs.CallStatus(i), s.StateOf(rs.Tools[i].ChildID).Kind)
		if got := rs.CallStatus(i); got != want[rs.Tools[i].ChildID] {
			t.Errorf("call for %s shows %v, want %v", rs.Tools[i].ChildID, got, want[rs.Tools[i].ChildID])
		}
	}
	if k := s.StateOf(kids[0].ID).Kind; k != KindAborted {
		t.Errorf("the aborted child is %v", k)
	}
	if c := s.Counts(root); c.ToolsDone != 1 || c.ToolsFailed != 1 || c.ToolsAborted != 1 || c.ToolsRunning != 0 || c.Tools() != 3 {
		t.Errorf("tools %+v, want 1 done, 1 failed, 1 aborted", c)
	}
}

// A background child that completed but whose notice has not reached the
// parent yet keeps the parent waiting: the server is about to run it.
func TestBackgroundWaitsForTheNotice(t *testing.T) {
	s := apply(
		created("p", "", "root", 1), status("p", "busy"), userMsg("p", "m1", 1),
		asstMsg("p", "m2", 0, 0, 2, 0),
		created("ses_c", "p", "worker (@general subagent)", 3),
		tool("p", "m2", "t1", "task", "completed", "input", `{"description":"worker","background":true}`,
			"metadata", `{"sessionId":"ses_c","background":true,"jobId":"ses_c"}`,
			"output", `<task id="ses_c" state="running">`),
		asstMsg("p", "m2", 0, 0, 2, 4), status("p", "idle"),
		status("ses_c", "busy"), userMsg("ses_c", "n1", 3), asstMsg("ses_c", "n2", 0, 0, 4, 0),
	)
	if st := s.StateOf("p"); st.Kind != KindBackground || st.Detail != "waiting on 1 background task" {
		t.Fatalf("parent %v %q, want waiting on 1 background task", st.Kind, st.Detail)
	}
	if !st(s, "p").Live() || st(s, "p").Status() != "running" {
		t.Error("waiting on a background task is not live")
	}
	s.Apply(asstMsg("ses_c", "n2", 0, 0, 4, 5))
	s.Apply(text("ses_c", "n2", "x", "done", 4, 5))
	before := s.SessionVersion("p")
	s.Apply(status("ses_c", "idle"))
	if s.SessionVersion("p") == before {
		t.Error("the child it follows ended, and the parent's version did not change: its row would not be drawn again")
	}
	if k := s.StateOf("ses_c").Kind; k != KindComplete {
		t.Fatalf("child %v", k)
	}
	if k := s.StateOf("p").Kind; k != KindBackground {
		t.Errorf("child done, notice not yet come: parent %v, want still waiting", k)
	}
	if got := s.Session("p").CallStatus(0); got != ToolCompleted {
		t.Errorf("the call shows %v, want completed (its child's end)", got)
	}
	rev := s.SessionVersion("p")
	s.Apply(userMsg("p", "m3", 6))
	s.Apply(wire.PartUpdated{Part: wire.Part{ID: "q", SessionID: "p", MessageID: "m3", Type: wire.PartText, Synthetic: true,
		Text: "<task id=\"ses_c\" state=\"completed\">\n<summary>Background task completed: worker</summary>\n<task_result>\ndone\n</task_result>\n</task>"}})
	if s.SessionVersion("p") == rev {
		t.Error("the notice did not change the parent's version")
	}
	if st := s.StateOf("p"); st.Kind != KindRunning {
		t.Errorf("notice not answered yet: parent %v, want running (starting)", st.Kind)
	}
	s.Apply(status("p", "busy"))
	s.Apply(asstMsg("p", "m4", 0, 0, 7, 8))
	s.Apply(text("p", "m4", "y", "noticed", 7, 8))
	s.Apply(status("p", "idle"))
	if k := s.StateOf("p").Kind; k != KindComplete {
		t.Errorf("notice answered: parent %v, want complete", k)
	}
	if rs := s.Session("p"); rs.RunStart != 1 || rs.LastText() != "noticed" {
		t.Errorf("run start %d, last text %q", rs.RunStart, rs.LastText())
	}
}

func st(s *State, id string) Kind { return s.StateOf(id).Kind }

// A child started any other way (octop launch makes a child session and
// prompts it) never makes its idle parent wait; nor does a foreground
// task in the 1.18 output form.
func TestNotBackgroundNeverWaits(t *testing.T) {
	s := apply(
		created("p", "", "root", 1), userMsg("p", "m1", 1), asstMsg("p", "m2", 0, 0, 2, 3),
		text("p", "m2", "a", "hello", 2, 3), status("p", "idle"),
		created("c", "p", "launched (@general subagent)", 4), status("c", "busy"), userMsg("c", "n1", 4),
		created("q", "", "other root", 5), userMsg("q", "r1", 5), asstMsg("q", "r2", 0, 0, 6, 9),
		created("k", "q", "fg (@general subagent)", 6), status("k", "busy"), userMsg("k", "k1", 6),
		tool("q", "r2", "t1", "task", "completed", "metadata", `{"sessionId":"k"}`,
			"output", "<task id=\"ses_k\" state=\"completed\">\n<task_result>\nok\n</task_result>\n</task>"),
		status("q", "idle"),
	)
	for _, id := range []string{"p", "q"} {
		if k := s.StateOf(id).Kind; k != KindComplete {
			t.Errorf("%s is %v with a busy child it did not launch in the background; want complete", id, k)
		}
	}
	if s.Session("q").Tools[0].Background {
		t.Error("a foreground task in the <task state=completed> form was taken as a background one")
	}
}

// After a restart the background child is idle with a reply that never
// finished, and no notice ever comes: the parent is done, the call shows
// the child interrupted.
func TestBackgroundRestart(t *testing.T) {
	root := readJSON[[]wire.MessageWithParts](t, "testdata/background/restart-root-messages.json")
	kid := readJSON[[]wire.MessageWithParts](t, "testdata/background/restart-child-messages.json")
	rid, kidID := root[0].Info.SessionID, kid[0].Info.SessionID
	s := New()
	s.ApplySnapshot(Snapshot{Complete: true, Sessions: []wire.Session{
		{ID: rid, Time: wire.SessionTime{Created: 1, Updated: 1}},
		{ID: kidID, ParentID: rid, Time: wire.SessionTime{Created: 2, Updated: 2}}},
		Messages: map[string][]wire.MessageWithParts{rid: root, kidID: kid}})
	if k := s.StateOf(kidID).Kind; k != KindInterrupted {
		t.Errorf("child %v, want interrupted", k)
	}
	if k := s.StateOf(rid).Kind; k != KindComplete {
		t.Errorf("root %v, want complete: nothing more will come", k)
	}
	if got := s.Session(rid).CallStatus(0); got != ToolInterrupted {
		t.Errorf("call %v, want interrupted", got)
	}
}

// A foreground task moved to the background has no "background" input
// key: its metadata says so.
func TestBackgroundPromoted(t *testing.T) {
	msgs := readJSON[[]wire.MessageWithParts](t, "testdata/background/promote-root-messages.json")
	id := msgs[0].Info.SessionID
	s := New()
	s.ApplySnapshot(Snapshot{Sessions: []wire.Session{{ID: id, Time: wire.SessionTime{Created: 1, Updated: 1}}},
		Messages: map[string][]wire.MessageWithParts{id: msgs}})
	n := 0
	for _, tc := range s.Session(id).Tools {
		if tc.Tool == "task" {
			n++
			if !tc.Background || strings.Contains(tc.Input, "background") {
				t.Errorf("promoted call %+v", tc)
			}
		}
	}
	if n != 2 {
		t.Fatalf("%d task calls", n)
	}
	// Both children's notices are there and answered; the children
	// themselves were not read: the notices say how they ended.
	if k := s.StateOf(id).Kind; k != KindComplete {
		t.Errorf("root %v, want complete", k)
	}
}

// A child known to be idle whose history is unread, with no notice: how
// it ended (and so whether a notice is due) is unknown.
func TestBackgroundUnknownChild(t *testing.T) {
	s := New()
	s.ApplySnapshot(Snapshot{Complete: true, Sessions: []wire.Session{
		{ID: "p", Time: wire.SessionTime{Created: 1, Updated: 1}},
		{ID: "c", ParentID: "p", Time: wire.SessionTime{Created: 2, Updated: 2}}},
		Messages: map[string][]wire.MessageWithParts{"p": {
			{Info: wire.Message{ID: "m1", SessionID: "p", Role: "user", Time: wire.MessageTime{Created: 1}}},
			{Info: wire.Message{ID: "m2", SessionID: "p", Role: "assistant", Time: wire.MessageTime{Created: 2, Completed: 3}},
				Parts: []wire.Part{{ID: "t", SessionID: "p", MessageID: "m2", Type: wire.PartTool, Tool: "task",
					State: &wire.ToolState{Status: "completed", Metadata: json.RawMessage(`{"sessionId":"c","background":true}`)}}}},
		}}})
	if k := s.StateOf("p").Kind; k != KindNotLoaded {
		t.Errorf("parent %v, want not loaded until its child is read", k)
	}
	s.ApplyMessages(map[string][]wire.MessageWithParts{"c": {
		{Info: wire.Message{ID: "n1", SessionID: "c", Role: "user", Time: wire.MessageTime{Created: 2}}},
		{Info: wire.Message{ID: "n2", SessionID: "c", Role: "assistant", Error: &wire.ErrorInfo{Name: "MessageAbortedError"},
			Time: wire.MessageTime{Created: 2}}}}})
	if k := s.StateOf("p").Kind; k != KindComplete {
		t.Errorf("parent %v after its child was read (aborted: no notice comes), want complete", k)
	}
}

func TestParseNotice(t *testing.T) {
	for _, c := range []struct {
		text string
		want Notice
		ok   bool
	}{
		{"<task id=\"ses_a1\" state=\"completed\">\n<summary>Background task completed: worker 0</summary>\n<task_result>\nall <task_result> good\n</task_result>\n</task>",
			Notice{ChildID: "ses_a1", State: "completed", Summary: "Background task completed: worker 0", Body: "all <task_result> good"}, true},
		{"<task id=\"ses_b\" state=\"error\">\n<summary>Background task failed: w</summary>\n<task_error>\nSubagent failed\n</task_error>\n</task>",
			Notice{ChildID: "ses_b", State: "error", Summary: "Background task failed: w", Body: "Subagent failed"}, true},
		{"please look at <task id=\"ses_b\" state=\"error\">", Notice{}, false},
		{"task_id: ses_x (for resuming)", Notice{}, false},
	} {
		got, ok := ParseNotice(c.text)
		if ok != c.ok || got != c.want {
			t.Errorf("ParseNotice(%q) = %+v, %v; want %+v, %v", c.text, got, ok, c.want, c.ok)
		}
	}
	n, _ := ParseNotice("<task id=\"ses_b\" state=\"error\">\n<summary>Background task failed: worker 3</summary>")
	if n.Description() != "worker 3" || n.Ended() != "failed" {
		t.Errorf("description %q ended %q", n.Description(), n.Ended())
	}
	if TaskOutputState("<task id=\"ses_x\" state=\"running\">\n…") != "running" || TaskOutputState("task_id: ses_x") != "" {
		t.Error("TaskOutputState")
	}
}

// A child the parent follows that asks a permission moves the parent
// too: its row is drawn again and the header counts it again.
func TestBackgroundChildAsks(t *testing.T) {
	s := apply(
		created("p", "", "root", 1), userMsg("p", "m1", 1), asstMsg("p", "m2", 0, 0, 2, 4),
		tool("p", "m2", "t1", "task", "completed", "input", `{"description":"worker","background":true}`,
			"metadata", `{"sessionId":"ses_c","background":true}`),
		status("p", "idle"),
		created("ses_c", "p", "worker (@general subagent)", 3), userMsg("ses_c", "n1", 3),
		asstMsg("ses_c", "n2", 0, 0, 4, 0), status("ses_c", "idle"),
	)
	if k := st(s, "ses_c"); k != KindInterrupted {
		t.Fatalf("child %v, want interrupted", k)
	}
	if k := st(s, "p"); k == KindBackground {
		t.Fatalf("parent %v while its one child is interrupted", k)
	}
	s.Tally()
	before := s.SessionVersion("p")
	s.Apply(wire.PermissionAsked{Request: wire.PermissionRequest{ID: "per_1", SessionID: "ses_c"}})
	if k := st(s, "p"); k != KindBackground {
		t.Fatalf("parent %v, want background: its child waits on a person", k)
	}
	if s.SessionVersion("p") == before {
		t.Error("the child it follows asked, and the parent's version did not change")
	}
	if c := s.Tally(); c.Running != 1 || c.Waiting != 1 {
		t.Errorf("tally running %d waiting %d, want 1 and 1 (the parent, the child)", c.Running, c.Waiting)
	}
}
