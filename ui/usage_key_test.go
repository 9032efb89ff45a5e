package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
)

// TestUsageKey: $ on a session opens what its subtree spent, read from
// the server's messages: the same groups and total as octop usage; b
// groups another way; esc closes; nothing is sent that changes anything.
func TestUsageKey(t *testing.T) {
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

// historiesOnly is a server that reads histories and nothing else: its
// Do refuses every request.
type historiesOnly struct {
	hangingOps
	msgs map[string][]wire.MessageWithParts
}

func (historiesOnly) Do(_ context.Context, r task.Request) task.Reply {
	return r.Refused(errors.New("no call for it"))
}

func (h historiesOnly) History(_ context.Context, id, _ string) ([]wire.MessageWithParts, error) {
	return h.msgs[id], nil
}

// TestUsageKeyNeedsOnlyHistory: the $ room's read of a subtree's
// histories is carried out from the server's History, however many
// sessions, whatever its Do knows: a server call for it is written once,
// not in every Server.
func TestUsageKeyNeedsOnlyHistory(t *testing.T) {
	reply := func(id string, cost float64) []wire.MessageWithParts {
		return []wire.MessageWithParts{{Info: wire.Message{ID: "m2", SessionID: id, Role: "assistant", Agent: "build",
			Cost: cost, Tokens: wire.Tokens{Input: 1000, Output: 100}}}}
	}
	srv := historiesOnly{msgs: map[string][]wire.MessageWithParts{"ses_root": reply("ses_root", 0.5), "ses_kid": reply("ses_kid", 0.25)}}
	m := newTestModel(t, 120, 40, func(o *Options) { o.Server = srv })
	m = send(t, m, events(created("ses_root", "", "root", 1), created("ses_kid", "ses_root", "kid", 2)))
	m = send(t, m, SelectMsg{ID: "ses_root"})
	m, _ = do(t, m, keyMsgs("$")[0])
	if sc := screen(m); !strings.Contains(sc, "$0.7500") || strings.Contains(sc, "no call") {
		t.Fatalf("$ did not read the subtree's histories:\n%s", sc)
	}
}
