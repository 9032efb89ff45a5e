package cli

import (
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// undoFake is two children of one root that wrote at the same time:
// ses_w0 with its write tool, ses_w1 appending with bash; each one's
// patch part lists both files.
func undoFake(t *testing.T) *opencodetest.Server {
	srv := opencodetest.New(t, opencodetest.Options{})
	hostileEnv(t, srv.URL())
	d := opencodetest.DefaultDirectory
	at := func(c int64) wire.SessionTime { return wire.SessionTime{Created: c, Updated: c + 100} }
	srv.AddSession(wire.Session{ID: "ses_root", Title: "root", Time: at(100)})
	for i, w := range []struct{ id, tool, input string }{
		{"ses_w0", "write", `{"filePath":"out-w0.txt"}`},
		{"ses_w1", "bash", `{"command":"echo l >> out-w1.txt"}`},
	} {
		c := int64(110 + i)
		srv.AddSession(wire.Session{ID: w.id, ParentID: "ses_root", Title: "worker " + w.id[5:], Time: at(c)})
		srv.SetMessages(w.id, []wire.MessageWithParts{
			{Info: wire.Message{ID: "msg_" + w.id[4:] + "u", SessionID: w.id, Role: "user", Time: wire.MessageTime{Created: c},
				Summary: &wire.MessageSummary{Diffs: []wire.FileDiff{{File: "out-" + w.id[4:] + ".txt", Additions: 1, Status: "added"}}}}},
			{Info: wire.Message{ID: "msg_" + w.id[4:] + "a", SessionID: w.id, Role: "assistant", Time: wire.MessageTime{Created: c + 1, Completed: 150}},
				Parts: []wire.Part{{ID: "prt_t", Type: "tool", Tool: w.tool, State: &wire.ToolState{Status: "completed",
					Input: json.RawMessage(w.input), Time: wire.ToolTime{Start: 120 + int64(i), End: 121 + int64(i)}}}}},
		})
		srv.AddPatch(w.id, opencodetest.Patch{MessageID: "msg_" + w.id[4:] + "a", Hash: "h", Files: []string{d + "/out-w0.txt", d + "/out-w1.txt"}})
	}
	return srv
}

// TestUndoDryRunJSON: --dry-run --json prints the preview with each
// file's lines and the sessions that also changed it, and sends nothing.
func TestUndoDryRunJSON(t *testing.T) {
	srv := undoFake(t)
	code, out, errs := octopMain(t, "undo", "ses_w0", "--dry-run", "--json")
	if code != codeOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var j struct {
		Session, To string
		Files       []struct {
			Path                 string
			Additions, Deletions int
			AlsoChangedBy        []string `json:"also_changed_by"`
		}
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if j.Session != "ses_w0" || j.To != "msg_w0u" || len(j.Files) != 2 {
		t.Fatalf("preview %+v", j)
	}
	if f := j.Files[0]; f.Path != "out-w0.txt" || f.Additions != 1 || len(f.AlsoChangedBy) != 0 {
		t.Errorf("own file %+v", f)
	}
	if f := j.Files[1]; f.Path != "out-w1.txt" || !reflect.DeepEqual(f.AlsoChangedBy, []string{"ses_w1"}) {
		t.Errorf("sibling's file %+v", f)
	}
	if m := srv.Mutations(); len(m) != 0 {
		t.Errorf("a dry run sent %v", m)
	}
}

// TestUndoRefusals: another session's work without --force exits 6, no
// terminal and no --yes exits 2, a declined prompt exits 6: nothing is
// sent in each case. --yes --force undoes and says what was restored.
func TestUndoRefusals(t *testing.T) {
	srv := undoFake(t)
	code, out, errs := octopMain(t, "undo", "ses_w0", "--yes")
	if code != codeRefused || !strings.Contains(errs, "ses_w1") || !strings.Contains(out, "! also changed by ses_w1") {
		t.Errorf("without --force: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, _, errs := octopMain(t, "undo", "ses_w0", "--force"); code != codeUsage || !strings.Contains(errs, "--yes") {
		t.Errorf("no terminal, no --yes: exit %d, %q", code, errs)
	}
	ask := canAsk
	t.Cleanup(func() { canAsk = ask })
	canAsk = func(io.Reader) bool { return true }
	if code, _, errs := octopMain(t, "undo", "ses_w0", "--force"); code != codeRefused || !strings.Contains(errs, "ses_w1") {
		t.Errorf("declined: exit %d, %q", code, errs)
	}
	if m := srv.Mutations(); len(m) != 0 {
		t.Fatalf("refusals sent %v", m)
	}
	code, out, errs = octopMain(t, "undo", "ses_w0", "--yes", "--force")
	if code != codeOK || !strings.Contains(out, "restored: out-w0.txt") || !strings.Contains(out, "restored: out-w1.txt") {
		t.Errorf("forced: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if m := srv.Mutations(); !reflect.DeepEqual(m, []string{"POST /session/ses_w0/revert"}) {
		t.Errorf("sent %v", m)
	}
	code, out, _ = octopMain(t, "redo", "ses_w0")
	if code != codeOK || !strings.Contains(out, "redone: ses_w0") {
		t.Errorf("redo: exit %d, %q", code, out)
	}
	if code, _, errs := octopMain(t, "redo", "ses_w0"); code != codeOK || !strings.Contains(errs, "nothing undone") {
		t.Errorf("redo again: exit %d, %q", code, errs)
	}
}
