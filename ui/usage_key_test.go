package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestLedgerKey: $ on a session opens what its subtree spent, read from
// the server's messages: the same groups and total as octop usage; b
// groups another way; esc closes; nothing is sent that changes anything.
func TestLedgerKey(t *testing.T) {
	f, c := newFakeOpenCode(t)
	m := actionModel(t, f, c, created("ses_root", "", "root", 1), created("ses_kid", "ses_root", "kid", 2),
		taskCall("ses_root", "p1", "ses_kid", "find callers", "completed", 2))
	f.setMessages(t, "ses_root", `[
	 {"info":{"id":"m1","sessionID":"ses_root","role":"user","agent":"build","time":{"created":1000}},"parts":[]},
	 {"info":{"id":"m2","sessionID":"ses_root","role":"assistant","agent":"build","providerID":"anthropic","modelID":"claude",
	  "cost":0.5,"tokens":{"input":1000,"output":100,"reasoning":0,"cache":{"read":50,"write":0}},"time":{"created":1100,"completed":2000}},"parts":[]}]`)
	f.setMessages(t, "ses_kid", `[
	 {"info":{"id":"m1","sessionID":"ses_kid","role":"user","agent":"general","time":{"created":2000}},"parts":[]},
	 {"info":{"id":"m2","sessionID":"ses_kid","role":"assistant","agent":"general","providerID":"mock","modelID":"mock-1",
	  "cost":0,"tokens":{"input":300,"output":30,"reasoning":0,"cache":{"read":0,"write":0}},"time":{"created":2100,"completed":3000}},"parts":[]}]`)
	m = send(t, m, SelectMsg{ID: "ses_root"})
	m, _ = do(t, m, keyMsgs("$")[0])
	sc := screen(m)
	for _, want := range []string{"$ spend  root", "by agent", "build", "general", "1.0k", "1.3k", "n/a", "total", "≥$0.5000",
		"Nothing that ended badly", "Cost not reported for 1 of 2 replies"} {
		if !strings.Contains(sc, want) {
			t.Fatalf("$ lacks %q:\n%s", want, sc)
		}
	}
	m, _ = do(t, m, keyMsgs("b")[0])
	if sc := screen(m); !strings.Contains(sc, "by model") || !strings.Contains(sc, "anthropic/claude") {
		t.Fatalf("b did not group by model:\n%s", sc)
	}
	m, _ = do(t, m, tea.KeyPressMsg{Code: tea.KeyEscape})
	if m.dialog != nil {
		t.Fatal("esc left the ledger open")
	}
	if len(f.Mutations()) != 0 {
		t.Errorf("the ledger sent %v", f.Mutations())
	}
}
