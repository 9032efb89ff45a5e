package record

import (
	"bytes"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// TestRecordingReplaysTheUndoMark: a recorded snapshot and session.updated
// keep the revert field, so a replay marks what was undone, and unmarks
// it when the recording says it was redone.
func TestRecordingReplaysTheUndoMark(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, "v9.9.9", 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Snapshot(server, t0, 1, model.Snapshot{Complete: true, Sessions: []wire.Session{{ID: "ses_a", Title: "w",
		Time: wire.SessionTime{Created: 1, Updated: 2}, Revert: &wire.Revert{MessageID: "msg_1"}}}})
	w.Event(server, t0.Add(time.Millisecond), []byte(`{"type":"session.updated","properties":{"sessionID":"ses_b","info":
		{"id":"ses_b","title":"x","time":{"created":1,"updated":3},"revert":{"messageID":"msg_2","snapshot":"s",
		"diff":"diff --git a/f.txt b/f.txt\ndeleted file mode 100644\n--- a/f.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x"}}}}`))
	w.Event(server, t0.Add(2*time.Millisecond), []byte(`{"type":"session.updated","properties":{"sessionID":"ses_a","info":
		{"id":"ses_a","title":"w","time":{"created":1,"updated":4}}}}`))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	st := model.New()
	for i, e := range rec.Entries {
		v, err := e.Decode()
		if err != nil {
			t.Fatal(err)
		}
		switch v := v.(type) {
		case model.Snapshot:
			st.ApplySnapshot(v)
			if r := st.Session("ses_a").Reverted(); r == nil || r.MessageID != "msg_1" {
				t.Fatalf("after the snapshot: %+v", r)
			}
		case wire.Envelope:
			st.Apply(v.Event)
		}
		if e, ok := v.(wire.Envelope); ok && wire.SessionOf(e.Event) == "ses_b" {
			if r := st.Session("ses_b").Reverted(); r == nil || len(r.Files) != 1 || r.Files[0].Path != "f.txt" {
				t.Fatalf("entry %d, after the event %#v: %+v", i, e.Event, r)
			}
		}
	}
	if st.Session("ses_a").Reverted() != nil {
		t.Error("the redo the recording holds left the mark")
	}
}
