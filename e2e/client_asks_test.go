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

// TestClientQuestion: a question the model asks shows in Questions and as
// a question.asked event; ReplyQuestion lets the run finish.
func TestClientQuestion(t *testing.T) {
	for _, v := range harness.Versions() {
		t.Run(v, func(t *testing.T) {
			t.Parallel() // each version on a server of its own
			s := harness.Shared(t, v)
			c := newClient(t, s)
			log := startStream(t, c)
			log.wait(t, 30*time.Second, "the stream to connect", func(items []any) bool { return count[wire.ResyncNeeded](items) > 0 })
			root := prompt(t, c, "client question", "QUESTION")

			var q wire.QuestionRequest
			waitREST(t, 60*time.Second, "the pending question", func(ctx context.Context) (bool, error) {
				qs, err := c.Questions(ctx)
				i := slices.IndexFunc(qs, func(q wire.QuestionRequest) bool { return q.SessionID == root.ID })
				if i >= 0 {
					q = qs[i]
				}
				return i >= 0, err
			})
			if len(q.Questions) != 1 || q.Questions[0].Header != "Database" || len(q.Questions[0].Options) != 2 {
				t.Fatalf("question = %+v", q)
			}
			log.wait(t, 10*time.Second, "a question.asked event", func(items []any) bool {
				return slices.ContainsFunc(events[wire.QuestionAsked](items), func(e wire.QuestionAsked) bool { return e.Request.ID == q.ID })
			})
			ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(30*time.Second))
			defer cancel()
			if err := c.ReplyQuestion(ctx, q.ID, [][]string{{"sqlite"}}); err != nil {
				t.Fatal(err)
			}
			want := fakellm.FinalText(mustScript(t, "QUESTION"))
			waitREST(t, 60*time.Second, "the final text after the answer", func(ctx context.Context) (bool, error) {
				msgs, err := c.Messages(ctx, root.ID, 0)
				text, _ := lastAssistantText(msgs)
				return text == want, err
			})
			msgs, _ := c.Messages(ctx, root.ID, 0)
			var output string
			for _, m := range msgs {
				for _, p := range m.Parts {
					if p.Tool == "question" && p.State != nil {
						output = p.State.Output
					}
				}
			}
			if !strings.Contains(output, "sqlite") {
				t.Errorf("question tool output %q does not carry the answer", output)
			}
			waitIdle(t, s, 30*time.Second)
		})
	}
}

// TestClientPermission: with bash set to ask, a LEAF's bash call waits in
// Permissions until ReplyPermission allows it.
func TestClientPermission(t *testing.T) {
	parallel(t)
	for _, v := range harness.Versions() {
		t.Run(v, func(t *testing.T) {
			t.Parallel() // each version on a server of its own
			s := harness.Start(t, harness.Config{Version: v, Extra: map[string]any{
				"permission": map[string]any{"*": "allow", "bash": "ask"},
			}})
			c := newClient(t, s)
			log := startStream(t, c)
			log.wait(t, 30*time.Second, "the stream to connect", func(items []any) bool { return count[wire.ResyncNeeded](items) > 0 })
			root := prompt(t, c, "client permission", "LEAF steps=1 sleep=0.1")

			var p wire.PermissionRequest
			waitREST(t, 60*time.Second, "the pending permission", func(ctx context.Context) (bool, error) {
				ps, err := c.Permissions(ctx)
				i := slices.IndexFunc(ps, func(p wire.PermissionRequest) bool { return p.SessionID == root.ID })
				if i >= 0 {
					p = ps[i]
				}
				return i >= 0, err
			})
			if p.Permission != "bash" {
				t.Errorf("permission = %+v, want a bash ask", p)
			}
			log.wait(t, 10*time.Second, "a permission.asked event", func(items []any) bool {
				return slices.ContainsFunc(events[wire.PermissionAsked](items), func(e wire.PermissionAsked) bool { return e.Request.ID == p.ID })
			})
			ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(30*time.Second))
			defer cancel()
			if err := c.ReplyPermission(ctx, p.ID, client.ReplyOnce, ""); err != nil {
				t.Fatal(err)
			}
			want := fakellm.FinalText(mustScript(t, "LEAF steps=1"))
			waitREST(t, 60*time.Second, "the final text after the permission", func(ctx context.Context) (bool, error) {
				msgs, err := c.Messages(ctx, root.ID, 0)
				text, _ := lastAssistantText(msgs)
				return text == want, err
			})
		})
	}
}

// TestClientGlobalStream: /global/event carries the project's events,
// each with the directory it came from.
func TestClientGlobalStream(t *testing.T) {
	for _, v := range harness.Versions() {
		t.Run(v, func(t *testing.T) {
			t.Parallel() // each version on a server of its own
			s := harness.Shared(t, v)
			c := newClientWith(t, client.Options{BaseURL: s.URL, Global: true})
			log := startStream(t, c)
			log.wait(t, 30*time.Second, "the stream to connect", func(items []any) bool { return count[wire.ResyncNeeded](items) > 0 })
			root := prompt(t, newClient(t, s), "client global", "LEAF steps=1 sleep=0.1")
			// Any of the root's events will do: on a loaded machine 1.18
			// once lost the session.created it published 28 ms after the
			// stream's connect, and carried the root's later events.
			var dir string
			log.wait(t, 30*time.Second, "an event of the root", func(items []any) bool {
				for _, it := range items {
					if env, ok := it.(wire.Envelope); ok && sessionOf(env.Event) == root.ID {
						dir = env.Directory
						return true
					}
				}
				return false
			})
			if dir != s.Dir {
				t.Errorf("envelope directory %q, want the project %q", dir, s.Dir)
			}
			waitIdle(t, s, 60*time.Second)
		})
	}
}

// sessionOf is the session an event is about, "" for none known here.
func sessionOf(e wire.Event) string {
	switch e := e.(type) {
	case wire.SessionCreated:
		return e.Info.ID
	case wire.SessionUpdated:
		return e.Info.ID
	case wire.SessionStatusChanged:
		return e.SessionID
	case wire.SessionIdle:
		return e.SessionID
	case wire.MessageUpdated:
		return e.Info.SessionID
	case wire.PartUpdated:
		return e.Part.SessionID
	}
	return ""
}
