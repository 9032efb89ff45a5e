package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/fakellm"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// TestTUIInbox answers, from octop's inbox in a real terminal, a
// permission ask (bash set to ask) and a question (fakellm QUESTION), and
// checks each session leaves the waiting state and finishes its run. Both
// server versions: their asks differ (1.1.65 sends no command metadata).
func TestTUIInbox(t *testing.T) {
	parallel(t)
	tuiRequireTmux(t)
	for _, v := range harness.Versions() {
		t.Run(v, func(t *testing.T) {
			t.Parallel() // each version on a server of its own
			tuiInbox(t, v)
		})
	}
}

func tuiInbox(t *testing.T, version string) {
	s := harness.Start(t, harness.Config{Version: version, Extra: map[string]any{
		"permission": map[string]any{"*": "allow", "bash": "ask"},
	}})
	c := newClient(t, s)
	tm := tuiStart(t, 160, 48, "--server", s.URL)
	tm.waitFor("octop to connect", func(sc string) bool { return strings.Contains(sc, "● connected") })

	// The question first, then the permission: the newer root comes first
	// in the tree, and so in the inbox.
	q := prompt(t, c, "tui inbox question", "QUESTION")
	t.Cleanup(func() { inboxAbort(c, q.ID) })
	qID := inboxWaitRequest(t, "the question", func(ctx context.Context) (string, error) {
		qs, err := c.Questions(ctx)
		if i := slices.IndexFunc(qs, func(r wire.QuestionRequest) bool { return r.SessionID == q.ID }); i >= 0 {
			return qs[i].ID, err
		}
		return "", err
	})
	p := prompt(t, c, "tui inbox permission", "LEAF steps=1 sleep=0.1")
	t.Cleanup(func() { inboxAbort(c, p.ID) })
	pID := inboxWaitRequest(t, "the permission ask", func(ctx context.Context) (string, error) {
		ps, err := c.Permissions(ctx)
		if i := slices.IndexFunc(ps, func(r wire.PermissionRequest) bool { return r.SessionID == p.ID }); i >= 0 {
			return ps[i].ID, err
		}
		return "", err
	})
	tm.waitFor("the header to count two waiting", func(sc string) bool { return strings.Contains(actHeader(sc), "2 waiting") })

	tm.actSend("i")
	tm.waitFor("the inbox with both requests", func(sc string) bool {
		return strings.Contains(sc, "Inbox: 2 requests from 2 sessions waiting on you") &&
			strings.Contains(sc, "▸ tui inbox permission") && strings.Contains(sc, "permission bash:") &&
			strings.Contains(sc, "question Database: Which database should the config loader use?") &&
			strings.Contains(sc, "1 sqlite") && strings.Contains(sc, "a allow once")
	})

	// a: allow once. The notice comes from the reply; the item leaves
	// when the server's permission.replied does.
	tm.actSend("a")
	tm.waitFor("the allow notice", func(sc string) bool { return strings.Contains(sc, "allowed bash for tui inbox permission") })
	tm.waitFor("the permission gone from the inbox", func(sc string) bool {
		return strings.Contains(sc, "Inbox: 1 request from 1 session") && !strings.Contains(sc, "permission bash:")
	})
	inboxWaitGone(t, "the permission", pID, func(ctx context.Context) ([]string, error) {
		ps, err := c.Permissions(ctx)
		var ids []string
		for _, r := range ps {
			ids = append(ids, r.ID)
		}
		return ids, err
	})
	wantLeaf := fakellm.FinalText(mustScript(t, "LEAF steps=1"))
	waitREST(t, tuiWait, "the permission session's final text", func(ctx context.Context) (bool, error) {
		msgs, err := c.Messages(ctx, p.ID, 0)
		text, _ := lastAssistantText(msgs)
		return text == wantLeaf, err
	})

	// enter goes to the question's session and closes the inbox.
	tm.waitFor("the question selected in the inbox", func(sc string) bool { return strings.Contains(sc, "▸ tui inbox question") })
	tm.actSend("Enter")
	tm.waitFor("the question's session selected, the inbox closed", func(sc string) bool {
		return strings.Contains(actHeader(sc), "tui inbox question") && !strings.Contains(sc, "Inbox:")
	})

	// 1: the first option.
	tm.actSend("i")
	tm.waitFor("the inbox with the question", func(sc string) bool { return strings.Contains(sc, "▸ tui inbox question") })
	tm.actSend("1")
	tm.waitFor("the answer notice", func(sc string) bool { return strings.Contains(sc, `answered "sqlite" for tui inbox question`) })
	tm.waitFor("an empty inbox", func(sc string) bool { return strings.Contains(sc, "nobody is waiting on you") })
	inboxWaitGone(t, "the question", qID, func(ctx context.Context) ([]string, error) {
		qs, err := c.Questions(ctx)
		var ids []string
		for _, r := range qs {
			ids = append(ids, r.ID)
		}
		return ids, err
	})
	wantQ := fakellm.FinalText(mustScript(t, "QUESTION"))
	var output string
	waitREST(t, tuiWait, "the question session's final text", func(ctx context.Context) (bool, error) {
		msgs, err := c.Messages(ctx, q.ID, 0)
		text, _ := lastAssistantText(msgs)
		for _, m := range msgs {
			for _, part := range m.Parts {
				if part.Tool == "question" && part.State != nil {
					output = part.State.Output
				}
			}
		}
		return text == wantQ, err
	})
	if !strings.Contains(output, "sqlite") {
		t.Errorf("the question tool's output %q does not carry the answer", output)
	}
	tm.actSend("Escape")
	tm.waitFor("the header to count none waiting", func(sc string) bool {
		h := actHeader(sc)
		return !strings.Contains(sc, "Inbox") && !strings.Contains(h, "1 waiting") && !strings.Contains(h, "2 waiting")
	})
}

// inboxWaitRequest polls find until it names a pending request's id.
func inboxWaitRequest(t *testing.T, what string, find func(ctx context.Context) (string, error)) string {
	t.Helper()
	var id string
	waitREST(t, tuiWait, what, func(ctx context.Context) (bool, error) {
		var err error
		id, err = find(ctx)
		return id != "", err
	})
	return id
}

// inboxWaitGone polls list until id is no longer pending on the server.
func inboxWaitGone(t *testing.T, what, id string, list func(ctx context.Context) ([]string, error)) {
	t.Helper()
	waitREST(t, tuiWait, what+" to leave the server's pending list", func(ctx context.Context) (bool, error) {
		ids, err := list(ctx)
		return err == nil && !slices.Contains(ids, id), err
	})
}

// inboxAbort stops a session the test started, in case it failed half-way.
func inboxAbort(c *client.Client, id string) {
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(10*time.Second))
	defer cancel()
	_ = c.Abort(ctx, id)
}
