package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
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

// lastAssistantText is the text of a session's last assistant message.
func lastAssistantText(msgs []wire.MessageWithParts) (string, *wire.ErrorInfo) {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Info.Role != "assistant" {
			continue
		}
		var b strings.Builder
		for _, p := range m.Parts {
			if p.Type == wire.PartText {
				b.WriteString(p.Text)
			}
		}
		return b.String(), m.Info.Error
	}
	return "", nil
}

// TestClientREST lists, creates, prompts, aborts and deletes against a
// live server.
func TestClientREST(t *testing.T) {
	for _, v := range harness.Versions() {
		t.Run(v, func(t *testing.T) {
			t.Parallel() // each version on a server of its own
			s := harness.Shared(t, v)
			c := newClient(t, s)
			ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(2*time.Minute))
			defer cancel()

			h, err := c.Health(ctx)
			if err != nil || !h.Healthy || h.Version != v {
				t.Fatalf("Health = %+v, %v; want healthy %s", h, err, v)
			}
			agents, err := c.Agents(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(agents, func(a wire.Agent) bool { return a.Name == "deep" && a.Mode == "subagent" }) ||
				!slices.ContainsFunc(agents, func(a wire.Agent) bool { return a.Name == "general" }) {
				t.Errorf("Agents lacks deep (subagent) or general: %+v", agents)
			}

			root, err := c.CreateSession(ctx, client.CreateSessionRequest{Title: "client rest root"})
			if err != nil {
				t.Fatal(err)
			}
			deny := []wire.PermissionRule{{Permission: "task", Pattern: "*", Action: "deny"}}
			child, err := c.CreateSession(ctx, client.CreateSessionRequest{ParentID: root.ID, Title: "hand-made child", Permission: deny})
			if err != nil {
				t.Fatal(err)
			}
			if child.ParentID != root.ID {
				t.Errorf("child.ParentID = %q, want %q", child.ParentID, root.ID)
			}
			all, err := c.Sessions(ctx)
			if err != nil {
				t.Fatal(err)
			}
			ids := make([]string, len(all))
			for i, x := range all {
				ids[i] = x.ID
			}
			if !slices.Contains(ids, root.ID) || !slices.Contains(ids, child.ID) {
				t.Errorf("Sessions %v lacks %s or %s", ids, root.ID, child.ID)
			}
			got, err := c.Session(ctx, root.ID)
			if err != nil || got.Title != "client rest root" {
				t.Errorf("Session(root) = %+v, %v", got, err)
			}
			kids, err := c.Children(ctx, root.ID)
			if err != nil || len(kids) != 1 || kids[0].ID != child.ID {
				t.Errorf("Children(root) = %+v, %v; want just %s", kids, err, child.ID)
			}

			// prompt_async on the child runs the fake's LEAF script to its end.
			script := "LEAF steps=1 sleep=0.1"
			if err := c.PromptAsync(ctx, child.ID, client.PromptRequest{Agent: "general", Parts: []client.TextPartInput{{Text: script}}}); err != nil {
				t.Fatal(err)
			}
			want := fakellm.FinalText(mustScript(t, script))
			waitREST(t, 60*time.Second, "the child's final answer "+want, func(ctx context.Context) (bool, error) {
				msgs, err := c.Messages(ctx, child.ID, 0)
				text, _ := lastAssistantText(msgs)
				return text == want, err
			})

			// Abort a runaway: it stops, and its message says it was
			// aborted. It is aborted in the middle of a long call, or 1.1.65
			// may end it as finished (see actWaitCallUnderWay).
			run := prompt(t, c, "client rest runaway", "RUNAWAY sleep=30")
			waitREST(t, 60*time.Second, "the runaway to be busy with a tool", func(ctx context.Context) (bool, error) {
				msgs, err := c.Messages(ctx, run.ID, 0)
				for _, m := range msgs {
					for _, p := range m.Parts {
						if p.Type == wire.PartTool && p.State != nil && p.State.Status == wire.ToolRunning {
							return true, err
						}
					}
				}
				return false, err
			})
			if err := c.Abort(ctx, run.ID); err != nil {
				t.Fatal(err)
			}
			waitREST(t, 30*time.Second, "the aborted runaway to be idle with MessageAbortedError", func(ctx context.Context) (bool, error) {
				st, err := c.Status(ctx)
				if err != nil {
					return false, err
				}
				if _, busy := st[run.ID]; busy {
					return false, nil
				}
				msgs, err := c.Messages(ctx, run.ID, 0)
				_, e := lastAssistantText(msgs)
				return e != nil && e.Name == "MessageAbortedError", err
			})

			if err := c.DeleteSession(ctx, root.ID); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Session(ctx, root.ID); !client.IsNotFound(err) {
				t.Errorf("Session after DeleteSession: %v, want not found", err)
			}
		})
	}
}

func mustScript(t testing.TB, text string) fakellm.Script {
	t.Helper()
	s, ok := fakellm.ParseScript(text)
	if !ok {
		t.Fatalf("no scenario in %q", text)
	}
	return s
}

// TestClientFanoutEvents: a 3-way fan-out yields three session.created
// events whose parentID is the root, and tool-part updates for each child,
// within 20 s.
func TestClientFanoutEvents(t *testing.T) {
	forShared(t, harness.Targets(), func(t *testing.T, s *harness.Server) {
		c := newClient(t, s)
		log := startStream(t, c)
		log.wait(t, 30*time.Second, "the stream to connect", func(items []any) bool { return count[wire.ResyncNeeded](items) > 0 })

		start := time.Now()
		root := prompt(t, c, "client fanout", `FANOUT k=3 agent=general child="LEAF steps=2 sleep=0.3"`)
		log.wait(t, 20*time.Second, "3 children of the root, each with tool-part updates", func(items []any) bool {
			kids := childrenOf(items, root.ID)
			if len(kids) < 3 {
				return false
			}
			for _, k := range kids {
				if len(toolParts(items, k)) == 0 {
					return false
				}
			}
			return true
		})
		t.Logf("3 children with tool updates after %v", time.Since(start).Round(time.Millisecond))
		log.mu.Lock()
		kids := childrenOf(log.items, root.ID)
		log.mu.Unlock()
		if len(kids) != 3 {
			t.Errorf("%d children created, want 3", len(kids))
		}
		// Let the run finish so the next test on this server starts quiet.
		want := fakellm.FinalText(mustScript(t, "FANOUT k=3"))
		log.wait(t, 60*time.Second, "the root's final text", func(items []any) bool {
			for _, e := range events[wire.PartUpdated](items) {
				if e.Part.SessionID == root.ID && e.Part.Type == wire.PartText && e.Part.Text == want {
					return true
				}
			}
			return false
		})
		waitIdle(t, s, 30*time.Second)
	})
}

// TestClientBigToolCall: a tool call carrying 5 MB arrives whole through
// Stream. OpenCode cuts tool outputs to ~50 KB, so the 5 MB rides in the
// write tool's input (see fakellm BIG).
func TestClientBigToolCall(t *testing.T) {
	const size = 5_000_000
	for _, v := range harness.Versions() {
		t.Run(v, func(t *testing.T) {
			t.Parallel() // each version on a server of its own
			s := harness.Shared(t, v)
			c := newClient(t, s)
			log := startStream(t, c)
			log.wait(t, 30*time.Second, "the stream to connect", func(items []any) bool { return count[wire.ResyncNeeded](items) > 0 })

			// A path of its own: OpenCode refuses to overwrite a file the
			// session has not read, and the shared server keeps its files.
			script := fmt.Sprintf("BIG bytes=%d path=octop-big-%d.txt", size, time.Now().UnixNano())
			root := prompt(t, c, "client big", script)
			var input struct {
				Content string `json:"content"`
			}
			var failed string
			log.wait(t, 90*time.Second, "the completed 5 MB write", func(items []any) bool {
				for _, p := range toolParts(items, root.ID) {
					if p.Tool == "write" && p.State != nil && p.State.Status == wire.ToolError {
						failed = p.State.Error
						return true
					}
					if p.Tool == "write" && p.State != nil && p.State.Status == wire.ToolCompleted {
						return json.Unmarshal(p.State.Input, &input) == nil
					}
				}
				return false
			})
			if failed != "" {
				t.Fatalf("the write failed: %s", failed)
			}
			if len(input.Content) != size || input.Content != fakellm.BigContent(size) {
				t.Fatalf("write input: %d bytes, want %d bytes of fakellm.BigContent", len(input.Content), size)
			}
			log.mu.Lock()
			for _, it := range log.items {
				switch x := it.(type) {
				case wire.DecodeError:
					t.Errorf("decode error: %v", x.Err)
				case wire.ConnState:
					if x.State == wire.Disconnected {
						t.Errorf("stream dropped during the big event: %v", x.Err)
					}
				}
			}
			log.mu.Unlock()
			// Let the root finish before the next test uses this server.
			want := fakellm.FinalText(mustScript(t, script))
			log.wait(t, 60*time.Second, "the root's final text", func(items []any) bool {
				for _, e := range events[wire.PartUpdated](items) {
					if e.Part.SessionID == root.ID && e.Part.Type == wire.PartText && e.Part.Text == want {
						return true
					}
				}
				return false
			})
			waitIdle(t, s, 30*time.Second)
		})
	}
}

// TestClientErrors checks the errors a person acts on, one by one.
func TestClientErrors(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(2*time.Minute))
	defer cancel()

	t.Run("closed port", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		url := "http://" + ln.Addr().String()
		ln.Close()
		c := newClientAt(t, url, "", "")
		_, err = c.Sessions(ctx)
		if !client.IsUnreachable(err) {
			t.Fatalf("Sessions on a closed port: %v, want unreachable", err)
		}
		if want := "cannot reach OpenCode at " + url + " — is `opencode serve` running?"; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("message %q, want it to start %q", err, want)
		}
	})

	t.Run("HTML answer", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, "<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>")
		}))
		defer srv.Close()
		c := newClientAt(t, srv.URL, "", "")
		_, err := c.Sessions(ctx)
		if client.ErrorKind(err) != client.KindBadResponse {
			t.Fatalf("Sessions from an HTML page: %v, want a bad-response error", err)
		}
		if msg := err.Error(); !strings.Contains(msg, "text/html") || !strings.Contains(msg, "Welcome to nginx!") {
			t.Errorf("message %q should say an HTML page came back and show its start", msg)
		}
		if err := c.Stream(ctx, func(any) {}); client.ErrorKind(err) != client.KindBadResponse {
			t.Errorf("Stream from an HTML page returned %v, want a bad-response error", err)
		}
	})

	for _, v := range harness.Versions() {
		t.Run("unknown session "+v, func(t *testing.T) {
			c := newClient(t, harness.Shared(t, v))
			const id = "ses_0000000000000000000000000X"
			_, err := c.Session(ctx, id)
			if !client.IsNotFound(err) {
				t.Fatalf("Session(%s): %v, want not found", id, err)
			}
			if want := "no session " + id + " on this server"; err.Error() != want {
				t.Errorf("message %q, want %q", err, want)
			}
			// 1.1.65 accepts a prompt for an unknown id with 204, so only
			// 1.18 can be held to a 404 here.
			if err := c.PromptAsync(ctx, id, client.PromptRequest{Parts: []client.TextPartInput{{Text: "hi"}}}); v == harness.V118 && !client.IsNotFound(err) {
				t.Errorf("PromptAsync(%s): %v, want not found", id, err)
			}
		})

		t.Run("wrong password "+v, func(t *testing.T) {
			s := harness.Start(t, harness.Config{Version: v, Password: "right-password"})
			good := newClient(t, s)
			if _, err := good.Sessions(ctx); err != nil {
				t.Fatalf("with the right password: %v", err)
			}
			bad := newClientAt(t, s.URL, s.Username, "wrong-password")
			_, err := bad.Sessions(ctx)
			if !client.IsUnauthorized(err) {
				t.Fatalf("wrong password: %v, want unauthorized", err)
			}
			if want := "OpenCode at " + s.URL + " rejected the password from --password or OPENCODE_SERVER_PASSWORD"; err.Error() != want {
				t.Errorf("message %q, want %q", err, want)
			}
			// No retry storm: the stream gives up at the first 401.
			var states []wire.ConnState
			sctx, scancel := context.WithTimeout(ctx, testwait.Scale(30*time.Second))
			defer scancel()
			err = bad.Stream(sctx, func(v any) {
				if cs, ok := v.(wire.ConnState); ok {
					states = append(states, cs)
				}
			})
			if !client.IsUnauthorized(err) {
				t.Errorf("Stream with a wrong password returned %v, want unauthorized", err)
			}
			connecting := 0
			for _, cs := range states {
				if cs.State == wire.Connecting {
					connecting++
				}
			}
			if connecting != 1 {
				t.Errorf("Stream tried %d times on a 401, want 1 (states %+v)", connecting, states)
			}
		})
	}
}
