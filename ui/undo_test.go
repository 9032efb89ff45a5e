package ui

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// undoScreen is the screen over a fake server holding a fan-out whose
// two children wrote at the same time: ses_w0 with its write tool,
// ses_w1 appending with bash; each one's patch part lists both files.
func undoScreen(t *testing.T) (fakeOpenCode, Model) {
	f, c := newFakeOpenCode(t)
	m := actionModel(t, f, c, created("ses_root", "", "root", 1), created("ses_w0", "ses_root", "worker 0", 2),
		created("ses_w1", "ses_root", "worker 1", 3))
	d := opencodetest.DefaultDirectory
	at := func(c int64) wire.SessionTime { return wire.SessionTime{Created: c, Updated: c + 100} }
	f.AddSession(wire.Session{ID: "ses_root", Title: "root", Time: at(100)})
	for i, w := range []struct{ id, tool, input string }{
		{"ses_w0", "write", `{"filePath":"out-w0.txt"}`},
		{"ses_w1", "bash", `{"command":"echo l >> out-w1.txt"}`},
	} {
		c := int64(110 + i)
		f.AddSession(wire.Session{ID: w.id, ParentID: "ses_root", Title: "worker " + w.id[5:], Time: at(c)})
		f.SetMessages(w.id, []wire.MessageWithParts{
			{Info: wire.Message{ID: "msg_" + w.id[4:] + "u", SessionID: w.id, Role: "user", Time: wire.MessageTime{Created: c},
				Summary: &wire.MessageSummary{Diffs: []wire.FileDiff{{File: "out-" + w.id[4:] + ".txt", Additions: 1, Status: "added",
					Patch: "@@ -0,0 +1 @@\n+" + w.id + " line 1\n"}}}}},
			{Info: wire.Message{ID: "msg_" + w.id[4:] + "a", SessionID: w.id, Role: "assistant", Time: wire.MessageTime{Created: c + 1, Completed: 150}},
				Parts: []wire.Part{{ID: "prt_t", Type: "tool", Tool: w.tool, State: &wire.ToolState{Status: "completed",
					Input: json.RawMessage(w.input), Time: wire.ToolTime{Start: 120 + int64(i), End: 121 + int64(i)}}}}},
		})
		f.AddPatch(w.id, opencodetest.Patch{MessageID: "msg_" + w.id[4:] + "a", Hash: "h", Files: []string{d + "/out-w0.txt", d + "/out-w1.txt"}})
	}
	return f, m
}

// TestUndoKey: u previews the files with the sibling named on its own
// file and the diff on request; the first yes asks again naming the
// sibling, and only the second sends the revert. The mark comes from the
// server's word (session.updated), and U brings the changes back.
func TestUndoKey(t *testing.T) {
	f, m := undoScreen(t)
	d := driver(t, send(t, m, SelectMsg{ID: "ses_w0"}))
	d.Press("u").Expect("Undo worker 0?", "out-w0.txt", "out-w1.txt", "! also changed by ses_w1 worker 1", "it may have: bash: echo l >> out-w1.txt")
	d.Press("d").Expect("diff of out-w0.txt", "+ses_w0 line 1")
	d.Press("y").Expect("This also undoes the work of ses_w1")
	if got := f.Mutations(); len(got) != 0 {
		t.Fatalf("the first yes sent %v", got)
	}
	d.Press("n").ExpectNot("This also undoes").Expect("Undo worker 0?")
	d.Press("y", "y").Expect("undone ses_w0")
	if got := f.Mutations(); !slices.Equal(got, []string{"POST /session/ses_w0/revert"}) {
		t.Fatalf("sent %v", got)
	}
	d.ExpectNot("↶ undone") // the screen waits for the server's word
	s, _ := f.Session("ses_w0")
	s.Time.Updated = ms(10) // the fake's clock is not the screen's
	d.Send(events(wire.SessionUpdated{Info: s})).Expect("↶ undone", "undone  ↶ 2 files · from msg_w0u on", "U or octop redo ses_w0")
	d.Press("U").Expect("Redo worker 0?", "brings back").Press("y").Expect("redone ses_w0")
	if got := f.Mutations(); !slices.Equal(got, []string{"POST /session/ses_w0/revert", "POST /session/ses_w0/unrevert"}) {
		t.Fatalf("sent %v", got)
	}
	s, _ = f.Session("ses_w0")
	s.Time.Updated = ms(20)
	d.Send(events(wire.SessionUpdated{Info: s})).ExpectNot("↶ undone")
}

// TestUndoOffersAbort: a running session is offered an abort first;
// after it the preview comes.
func TestUndoOffersAbort(t *testing.T) {
	f, m := undoScreen(t)
	f.SetStatus("ses_w0", wire.SessionStatus{Type: wire.StatusBusy})
	d := driver(t, send(t, send(t, m, events(busy("ses_w0"))), SelectMsg{ID: "ses_w0"}))
	d.Press("u").Expect("still running", "Abort ses_w0")
	d.Press("y").Expect("Undo worker 0?", "out-w0.txt")
	if got := f.Mutations(); !slices.Equal(got, []string{"POST /session/ses_w0/abort"}) {
		t.Fatalf("sent %v", got)
	}
}

// TestRedoKeyNeedsAnUndo: U on a session with nothing undone says so and
// sends nothing; u and U in a read-only screen send nothing.
func TestRedoKeyNeedsAnUndo(t *testing.T) {
	f, m := undoScreen(t)
	d := driver(t, send(t, m, SelectMsg{ID: "ses_w0"}))
	d.Press("U").Expect("nothing undone to redo")
	if got := f.Requests(); len(f.Mutations()) != 0 {
		t.Errorf("sent %v", got)
	}
}
