package tree

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/internal/testkit/termtest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

// FuzzRenderRow: a row shows what the server sent (a title, with its
// agent suffix, a directory, a tool call's title and input, a permission's
// name) in whatever bytes it sent. Each row, for every kind of session
// and every selection, must stay one line exactly the pane's width: a
// newline, a tab, an escape or a wide character in a title must not break
// the tree's columns, and nothing a terminal acts on may leave it but the
// row's own colours (termtest.Screen).
func FuzzRenderRow(f *testing.F) {
	f.Add("fix the parser (@general subagent)", "/home/me/proj", "go test ./...", `{"command":"ls"}`, "bash", uint8(80))
	f.Add("日本語\tタイトル\n2行目", "", "", "", "", uint8(3))
	f.Add("\x1b[31mred\x1b[0m title", "dir", "a\x00b", "{", "edit", uint8(30))
	inks := newInks(styles.New(true, false))
	f.Fuzz(func(t *testing.T, title, dir, callTitle, input, permission string, w uint8) {
		st := model.New()
		for _, ev := range fuzzSessions(title, dir, callTitle, input, permission) {
			st.Apply(ev)
		}
		width := int(w)%160 + 1
		rows := model.Flatten(st, map[string]bool{"ses_root": true}, "")
		for _, r := range rows {
			for _, sel := range []bool{false, true} {
				o := rowOpts{width: width, now: 5_000_000, spin: "⠋", selected: sel, focused: true, inks: inks, project: true}
				line := renderRow(st, r, o)
				if strings.Contains(line, "\n") {
					t.Fatalf("row %s (selected %v) spans lines: %q", r.ID, sel, line)
				}
				if got := ansi.StringWidth(line); got != width {
					t.Fatalf("row %s (selected %v) is %d cells, want %d: %q", r.ID, sel, got, width, line)
				}
				if bad := termtest.Screen(line); bad != "" {
					t.Fatalf("row %s (selected %v) holds %s", r.ID, sel, bad)
				}
			}
		}
	})
}

// fuzzSessions is a root and children in each state a row draws
// differently (running a call, retrying, waiting on a permission, done),
// all carrying the fuzzer's strings.
func fuzzSessions(title, dir, callTitle, input, permission string) []wire.Event {
	created := func(id, parent string) wire.Event {
		return wire.SessionCreated{Info: wire.Session{ID: id, ParentID: parent, Title: title, Directory: dir,
			Time: wire.SessionTime{Created: 1000, Updated: 1000}}}
	}
	busy := func(id, typ string) wire.Event {
		return wire.SessionStatusChanged{SessionID: id, Status: wire.SessionStatus{Type: typ, Attempt: 3, Message: title, Next: 9_000_000}}
	}
	return []wire.Event{
		created("ses_root", ""), busy("ses_root", "busy"),
		created("ses_run", "ses_root"), busy("ses_run", "busy"),
		wire.PartUpdated{Part: wire.Part{ID: "prt_1", SessionID: "ses_run", MessageID: "msg_1", Type: wire.PartTool, Tool: callTitle,
			State: &wire.ToolState{Status: "running", Title: callTitle, Input: []byte(input)}}},
		created("ses_retry", "ses_root"), busy("ses_retry", "retry"),
		created("ses_wait", "ses_root"), busy("ses_wait", "busy"),
		wire.PermissionAsked{Request: wire.PermissionRequest{ID: "per_1", SessionID: "ses_wait", Permission: permission}},
		created("ses_idle", "ses_root"),
	}
}
