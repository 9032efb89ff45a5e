package model

import (
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

const revertDiffW0 = "diff --git a/out-w0.txt b/out-w0.txt\ndeleted file mode 100644\nindex fab2db1..0000000\n--- a/out-w0.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b"

func reverted(id string, at int64, r *wire.Revert) wire.Event {
	return wire.SessionUpdated{Info: wire.Session{ID: id, Title: "w", Revert: r, Time: wire.SessionTime{Created: 1, Updated: at}}}
}

// TestRevertFact: the mark follows the server's revert field in the
// session's newest info: set by a revert, gone with an unrevert or a
// prompt that made it final, and an older info changes nothing.
func TestRevertFact(t *testing.T) {
	s := New()
	s.Apply(created("ses_a", "", "w", 1))
	if s.Session("ses_a").Reverted() != nil {
		t.Fatal("a new session is marked reverted")
	}
	s.Apply(reverted("ses_a", 5, &wire.Revert{MessageID: "msg_1", Diff: revertDiffW0}))
	r := s.Session("ses_a").Reverted()
	if r == nil || r.MessageID != "msg_1" || len(r.Files) != 1 || r.Files[0].Path != "out-w0.txt" || r.Files[0].Deletions != 2 {
		t.Fatalf("after the revert: %+v", r)
	}
	s.Apply(reverted("ses_a", 4, nil)) // older: not the server's word now
	if s.Session("ses_a").Reverted() == nil {
		t.Fatal("an older info cleared the mark")
	}
	if s.Seal("ses_a") {
		t.Error("a reverted session was sealed: its mark would go")
	}
	s.Apply(reverted("ses_a", 6, nil))
	if s.Session("ses_a").Reverted() != nil {
		t.Fatal("the unrevert left the mark")
	}
	s.ApplySnapshot(Snapshot{Sessions: []wire.Session{{ID: "ses_a", Title: "w", Time: wire.SessionTime{Created: 1, Updated: 7},
		Revert: &wire.Revert{MessageID: "msg_2"}}}, Complete: true})
	if r := s.Session("ses_a").Reverted(); r == nil || r.MessageID != "msg_2" || len(r.Files) != 0 {
		t.Fatalf("from a snapshot: %+v", r)
	}
}
