package model

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

func sess(id, parent, title string, at int64) wire.Session {
	return wire.Session{ID: id, ParentID: parent, Title: title, Time: wire.SessionTime{Created: at, Updated: at}}
}

func TestSnapshotIntoEmpty(t *testing.T) {
	s := New()
	s.ApplySnapshot(Snapshot{
		Sessions: []wire.Session{sess("ses_c", "ses_p", "kid", 2), sess("ses_p", "", "root", 1)},
		Status:   map[string]wire.SessionStatus{"ses_c": {Type: "busy"}},
		Messages: map[string][]wire.MessageWithParts{"ses_c": {{
			Info: wire.Message{ID: "msg_1", SessionID: "ses_c", Role: "assistant", Tokens: wire.Tokens{Input: 9}},
			Parts: []wire.Part{{ID: "prt_1", SessionID: "ses_c", MessageID: "msg_1", Type: "tool", Tool: "bash",
				State: &wire.ToolState{Status: "running", Input: json.RawMessage(`{"command":"make"}`)}}},
		}}},
		Permissions: []wire.PermissionRequest{{ID: "per_1", SessionID: "ses_c"}},
	})
	if !slices.Equal(s.Roots(), []string{"ses_p"}) || !slices.Equal(s.Session("ses_p").ChildIDs(), []string{"ses_c"}) {
		t.Fatalf("roots %v", s.Roots())
	}
	if s.display("ses_p") != DisplayIdle || s.display("ses_c") != DisplayWaiting {
		t.Fatalf("display p %d c %d", s.display("ses_p"), s.display("ses_c"))
	}
	c := s.Session("ses_c")
	if len(c.Tools) != 1 || c.Tools[0].Input != "make" || c.Tokens != 9 || s.Counts("ses_p").WaitingBelow != 1 {
		t.Fatalf("child %+v counts %+v", c, s.Counts("ses_p"))
	}
}

// TestResyncOverLiveState: a snapshot over a live state wins where it
// speaks, and only there.
func TestResyncOverLiveState(t *testing.T) {
	s := apply(
		created("ses_p", "", "root", 1), created("ses_c", "ses_p", "kid", 2), created("ses_other", "", "elsewhere", 3),
		status("ses_p", "busy"), status("ses_c", "busy"), status("ses_other", "busy"),
		tool("ses_c", "msg_1", "prt_1", "bash", "running"),
		wire.PermissionAsked{Request: wire.PermissionRequest{ID: "per_old", SessionID: "ses_p"}},
	)
	before := s.Version()
	s.ApplySnapshot(Snapshot{
		Sessions: []wire.Session{sess("ses_p", "", "root renamed", 1), sess("ses_c", "ses_p", "kid", 2)},
		Status:   map[string]wire.SessionStatus{"ses_p": {Type: "busy"}},
	})
	if s.Version() <= before {
		t.Fatal("version did not move")
	}
	if s.display("ses_c") != DisplayIdle {
		t.Fatalf("child absent from the status map must be idle, display %d", s.display("ses_c"))
	}
	if s.display("ses_p") != DisplayBusy || s.Session("ses_p").Title != "root renamed" {
		t.Fatalf("root: display %d title %q", s.display("ses_p"), s.Session("ses_p").Title)
	}
	if s.display("ses_other") != DisplayBusy {
		t.Fatalf("a session the snapshot does not cover keeps its status, display %d", s.display("ses_other"))
	}
	if s.Pending() != 0 {
		t.Fatalf("stale permission kept: %d", s.Pending())
	}
	if c := s.Counts("ses_c"); c.ToolsRunning != 0 || c.ToolsInterrupted != 1 {
		t.Fatalf("the dead call still counts as running: %+v", c)
	}
	if c := s.Counts("ses_p"); c.RunningBelow != 0 {
		t.Fatalf("running below = %d", c.RunningBelow)
	}
	// The same snapshot again changes nothing visible.
	a := canon(s)
	s.ApplySnapshot(Snapshot{
		Sessions: []wire.Session{sess("ses_p", "", "root renamed", 1), sess("ses_c", "ses_p", "kid", 2)},
		Status:   map[string]wire.SessionStatus{"ses_p": {Type: "busy"}},
	})
	if b := canon(s); a != b {
		t.Fatalf("second snapshot changed the state:\n%s\nvs\n%s", a, b)
	}
}

func TestSnapshotComplete(t *testing.T) {
	s := apply(created("ses_a", "", "a", 1), created("ses_gone", "", "gone", 2), tool("ses_ph", "msg_1", "prt_1", "bash", "running"))
	s.ApplySnapshot(Snapshot{Sessions: []wire.Session{sess("ses_a", "", "a", 1)}, Complete: true})
	if s.Session("ses_gone") != nil {
		t.Fatal("a session missing from a complete listing was kept")
	}
	if s.Session("ses_ph") == nil {
		t.Fatal("a placeholder (created after the listing was read) was dropped")
	}
	s2 := apply(created("ses_a", "", "a", 1), created("ses_b", "", "b", 2))
	s2.ApplySnapshot(Snapshot{Sessions: []wire.Session{sess("ses_a", "", "a", 1)}})
	if s2.Session("ses_b") == nil {
		t.Fatal("a partial listing dropped a session")
	}
}

// TestSnapshotMessagesSetError: the REST messages say how the last run
// ended, over a stale error or a missing one.
func TestSnapshotMessagesSetError(t *testing.T) {
	abortedMsg := wire.MessageWithParts{Info: wire.Message{ID: "msg_2", SessionID: "ses_a", Role: "assistant",
		Error: &wire.ErrorInfo{Name: "MessageAbortedError", Data: wire.ErrorInfoData{Message: "Aborted"}}}}
	cleanMsg := wire.MessageWithParts{Info: wire.Message{ID: "msg_3", SessionID: "ses_a", Role: "assistant",
		Time: wire.MessageTime{Created: 5, Completed: 6}}}
	s := apply(created("ses_a", "", "a", 1), status("ses_a", "busy"))
	snap := Snapshot{Sessions: []wire.Session{sess("ses_a", "", "a", 1)},
		Messages: map[string][]wire.MessageWithParts{"ses_a": {abortedMsg}}}
	s.ApplySnapshot(snap)
	if got := s.StateOf("ses_a"); got.Kind != KindAborted {
		t.Fatalf("state = %+v", got)
	}
	snap.Messages["ses_a"] = []wire.MessageWithParts{abortedMsg, cleanMsg}
	s.ApplySnapshot(snap)
	if got := s.StateOf("ses_a"); got.Kind != KindComplete {
		t.Fatalf("after a clean run state = %+v", got)
	}
}

// TestUndecodableSession: a listed session that did not decode keeps its
// place in the tree, marked with why; a fresh listing that decodes clears
// the mark, and so does its removal.
func TestUndecodableSession(t *testing.T) {
	st := New()
	st.ApplySnapshot(Snapshot{Complete: true, Sessions: []wire.Session{
		{ID: "ses_a", Title: "a", Time: wire.SessionTime{Created: 1, Updated: 1}},
		{ID: "ses_b", ParentID: "ses_a", Undecodable: "title is a number", Time: wire.SessionTime{Created: 2, Updated: 2}},
	}})
	if got := st.Undecodable("ses_b"); got != "title is a number" {
		t.Fatalf("Undecodable(ses_b) = %q", got)
	}
	if b := st.Session("ses_b"); b == nil || b.ParentID != "ses_a" || len(st.Session("ses_a").Children()) != 1 {
		t.Errorf("ses_b is not under ses_a: %+v", b)
	}
	if st.Undecodable("ses_a") != "" {
		t.Error("ses_a is marked")
	}
	st.Apply(wire.SessionUpdated{Info: wire.Session{ID: "ses_b", ParentID: "ses_a", Title: "b", Time: wire.SessionTime{Created: 2, Updated: 3}}})
	if got := st.Undecodable("ses_b"); got != "" {
		t.Errorf("after a good session.updated: %q", got)
	}
	st.ApplySnapshot(Snapshot{Complete: true, Sessions: []wire.Session{
		{ID: "ses_a", Title: "a", Time: wire.SessionTime{Created: 1, Updated: 1}, Undecodable: "agent is a list"}}})
	if st.Undecodable("ses_a") != "agent is a list" || st.Session("ses_b") != nil || st.Undecodable("ses_b") != "" {
		t.Errorf("after a snapshot without ses_b: a %q, b %q", st.Undecodable("ses_a"), st.Undecodable("ses_b"))
	}
}

// TestUnreadAsksStay: a snapshot that could not read the pending
// permissions or questions leaves those as they were, where it once took
// the failed read for "none" and had the waiting session answered (and
// waiting again at the next read). A list read still wins, and an idle
// session still asks nothing.
func TestUnreadAsksStay(t *testing.T) {
	asks := func() *State {
		return apply(created("ses_w", "", "waits", 1), status("ses_w", "busy"),
			created("ses_i", "", "stops", 2), status("ses_i", "busy"),
			wire.PermissionAsked{Request: wire.PermissionRequest{ID: "per_1", SessionID: "ses_w"}},
			wire.QuestionAsked{Request: wire.QuestionRequest{ID: "que_1", SessionID: "ses_w"}},
			wire.PermissionAsked{Request: wire.PermissionRequest{ID: "per_2", SessionID: "ses_i"}})
	}
	listed := []wire.Session{sess("ses_w", "", "waits", 1), sess("ses_i", "", "stops", 2)}
	busy := map[string]wire.SessionStatus{"ses_w": {Type: "busy"}}
	for _, c := range []struct {
		name                string
		snap                Snapshot
		perms, quests       int
		waiting, idleAsking bool
	}{
		{"both read, none", Snapshot{Sessions: listed, Status: busy}, 0, 0, false, false},
		{"neither read", Snapshot{Sessions: listed, Status: busy, PermissionsUnread: "GET /permission: server error (HTTP 503)",
			QuestionsUnread: "GET /question: timed out"}, 1, 1, true, false},
		{"questions unread", Snapshot{Sessions: listed, Status: busy, QuestionsUnread: "GET /question: timed out"}, 0, 1, true, false},
		{"permissions unread", Snapshot{Sessions: listed, Status: busy, PermissionsUnread: "GET /permission: timed out"}, 1, 0, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := asks()
			s.ApplySnapshot(c.snap)
			if p, q := len(s.Permissions("ses_w")), len(s.Questions("ses_w")); p != c.perms || q != c.quests {
				t.Errorf("ses_w asks %d permissions and %d questions, want %d and %d", p, q, c.perms, c.quests)
			}
			if got := s.StateOf("ses_w").Kind == KindWaiting; got != c.waiting {
				t.Errorf("ses_w waiting %v, want %v (%v)", got, c.waiting, s.StateOf("ses_w").Kind)
			}
			if len(s.Permissions("ses_i")) > 0 {
				t.Error("an idle session still asks")
			}
			if w := s.Tally().Waiting; c.waiting != (w == 1) {
				t.Errorf("the header's count says %d waiting", w)
			}
		})
	}
	if got := (Snapshot{PermissionsUnread: "a", QuestionsUnread: "b"}).Unread(); got != "a; b" {
		t.Errorf("Unread = %q", got)
	}
}
