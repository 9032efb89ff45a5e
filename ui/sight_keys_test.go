package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestLookInsideKeys: t opens the selected session's transcript (its
// messages read from the server), enter on a task call opens the child's,
// backspace goes back, esc closes; d shows the files its user messages
// changed; T the timeline of its subtree; s cycles the sort, the header
// naming it.
func TestLookInsideKeys(t *testing.T) {
	f, c := newFakeOpenCode(t)
	m := actionModel(t, f, c, created("ses_root", "", "root", 1), created("ses_kid", "ses_root", "kid", 2),
		taskCall("ses_root", "p1", "ses_kid", "find callers", "running", 2))
	f.setMessages(t, "ses_root", `[
	 {"info":{"id":"m1","sessionID":"ses_root","role":"user","summary":{"diffs":[{"file":"parse.go","additions":2,"deletions":1,"patch":"@@ -1 +1,2 @@\n-old line\n+new line\n+another\n"}]}},"parts":[{"id":"p0","type":"text","text":"Fix the parser."}]},
	 {"info":{"id":"m2","sessionID":"ses_root","role":"assistant"},"parts":[{"id":"p1","type":"tool","tool":"task","state":{"status":"running","input":{"description":"find callers","prompt":"go","subagent_type":"general"},"metadata":{"sessionId":"ses_kid"}}}]}]`)
	f.setMessages(t, "ses_kid", `[
	 {"info":{"id":"m1","sessionID":"ses_kid","role":"user"},"parts":[{"id":"p0","type":"text","text":"Find the callers."}]},
	 {"info":{"id":"m2","sessionID":"ses_kid","role":"assistant","time":{"created":1,"completed":2}},"parts":[{"id":"p1","type":"tool","tool":"bash","state":{"status":"completed","input":{"command":"grep -rn Parse ."},"output":"cmd/main.go:12: Parse()\n"}}]}]`)
	m = send(t, m, SelectMsg{ID: "ses_root"})
	if foot := lastLine(screen(m)); !strings.Contains(foot, "t/d/T look inside") || !strings.Contains(foot, "s sort") {
		t.Errorf("the footer does not name t/d/T and s: %q", foot)
	}

	m, _ = do(t, m, keyMsgs("t")[0])
	if sc := screen(m); !strings.Contains(sc, "» Fix the parser.") || !strings.Contains(sc, "⟩ task: find callers → ses_kid") {
		t.Fatalf("t did not show the root's transcript:\n%s", sc)
	}
	if foot := lastLine(screen(m)); !strings.Contains(foot, "enter expand / open child") || !strings.Contains(foot, "esc close") || strings.Contains(foot, "parent") {
		t.Errorf("the transcript's footer: %q", foot)
	}
	m, _ = do(t, m, enterKey) // the cursor is on the last entry: the task call
	if sc := screen(m); !strings.Contains(sc, "⟩ bash: grep -rn Parse .") || !strings.Contains(sc, "cmd/main.go:12: Parse()") {
		t.Fatalf("enter on the task call did not open the child's transcript:\n%s", sc)
	}
	if foot := lastLine(screen(m)); !strings.Contains(foot, "⌫ parent") {
		t.Errorf("the child transcript's footer does not offer the way back: %q", foot)
	}
	m, _ = do(t, m, tea.KeyPressMsg{Code: tea.KeyBackspace})
	if sc := screen(m); !strings.Contains(sc, "» Fix the parser.") {
		t.Fatalf("backspace did not go back to the parent's transcript:\n%s", sc)
	}
	m, _ = do(t, m, escKey)
	if m.dialog != nil {
		t.Fatal("esc left the transcript open")
	}

	m, _ = do(t, m, keyMsgs("d")[0])
	if sc := screen(m); !strings.Contains(sc, "1 file  +2 −1") || !strings.Contains(sc, "+another") {
		t.Fatalf("d did not show the files changed:\n%s", sc)
	}
	m, _ = do(t, m, escKey)
	m, _ = do(t, m, keyMsgs("T")[0])
	if sc := screen(m); !strings.Contains(sc, "timeline") || !strings.Contains(sc, "kid") {
		t.Fatalf("T did not show the timeline:\n%s", sc)
	}
	m, _ = do(t, m, escKey)
	if m.dialog != nil {
		t.Fatal("esc left the timeline open")
	}

	m = press(t, m, "s")
	if h := strings.SplitN(screen(m), "\n", 2)[0]; !strings.Contains(h, "sort: last activity") {
		t.Errorf("s: the header says %q, want sort: last activity", h)
	}
	if len(f.Mutations()) != 0 {
		t.Errorf("looking inside sent %v", f.Mutations())
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestSortReplacesTheNotice: after s the footer says the new order, not
// a notice from before.
func TestSortReplacesTheNotice(t *testing.T) {
	m := send(t, newTestModel(t, 120, 30), fanOut())
	m = send(t, m, FlashMsg{Text: "copied ses_old"})
	m = press(t, m, "s")
	last := lastLine(screen(m))
	if strings.Contains(last, "copied ses_old") || !strings.Contains(last, "sort: last activity first") {
		t.Errorf("after s the footer says %q", last)
	}
	m = press(t, m, "s", "s", "s", "s")
	if last := lastLine(screen(m)); !strings.Contains(last, "sort: newest first") {
		t.Errorf("back to the default, the footer says %q", last)
	}
}
