package e2e

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// treeNodes runs `octop tree --json` and indexes every node by id.
func treeNodes(t *testing.T, url string) map[string]*live.Node {
	t.Helper()
	code, out, _ := actOctop(t, url, "", "tree", "--json")
	var roots []*live.Node
	if code != 0 || json.Unmarshal([]byte(out), &roots) != nil {
		t.Fatalf("tree --json: exit %d, output %q", code, out)
	}
	nodes := map[string]*live.Node{}
	var walk func([]*live.Node)
	walk = func(ns []*live.Node) {
		for _, n := range ns {
			nodes[n.ID] = n
			walk(n.Children)
		}
	}
	walk(roots)
	return nodes
}

// waitChildren waits for n children of parent and returns them.
func waitChildren(t *testing.T, c *client.Client, parent string, n int) []wire.Session {
	t.Helper()
	var kids []wire.Session
	actWaitFor(t, "the children", func() (bool, error) {
		ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(10*time.Second))
		defer cancel()
		var err error
		kids, err = actChildren(ctx, c, parent)
		return len(kids) >= n, err
	})
	return kids
}

// TestTUICrashAndRestart: SIGKILL the server mid fan-out and start it again
// on the same data and port. The killed children are interrupted (⊘) on
// the screen, in `octop tree --json` (reason interrupted) and in `octop
// result` (exit 4, reason interrupted).
func TestTUICrashAndRestart(t *testing.T) {
	parallel(t)
	tuiRequireTmux(t)
	for _, v := range harness.Versions() {
		t.Run(v, func(t *testing.T) {
			t.Parallel() // each version on a server of its own
			s := harness.Start(t, harness.Config{Version: v, StartTimeout: 3 * time.Minute})
			tm := tuiStart(t, 160, 48, "--server", s.URL)
			tm.waitFor("octop to connect", func(sc string) bool { return strings.Contains(sc, "● connected") })
			c := newClient(t, s)
			root := prompt(t, c, "crash root", `FANOUT k=2 agent=general desc=worker child="LEAF steps=3 sleep=20"`)
			tm.waitFor("both workers running bash", func(sc string) bool {
				return strings.Contains(rowOf(sc, "worker 1 @general"), "⟩ bash") &&
					strings.Contains(rowOf(sc, "worker 2 @general"), "⟩ bash")
			})
			kids := waitChildren(t, c, root.ID, 2)

			if err := s.Stop(); err != nil { // SIGKILL
				t.Fatal(err)
			}
			tm.waitFor("the screen to say it is stale", func(sc string) bool {
				return strings.Contains(sc, "✗ disconnected") && strings.Contains(rowOf(sc, "worker 1 @general"), "⋯ worker 1")
			})
			if err := s.Restart(); err != nil {
				t.Fatal(err)
			}
			tm.waitFor("the killed workers interrupted", func(sc string) bool {
				return strings.Contains(sc, "● connected") &&
					strings.Contains(rowOf(sc, "worker 1 @general"), "⊘ worker 1") &&
					strings.Contains(rowOf(sc, "worker 2 @general"), "⊘ worker 2")
			})
			nodes := treeNodes(t, s.URL)
			for _, k := range kids {
				n := nodes[k.ID]
				if n == nil || n.Status != "error" || n.Reason != "interrupted" {
					t.Errorf("tree --json on killed child %s: %+v, want error/interrupted", k.ID, n)
				}
				code, out, _ := actOctop(t, s.URL, "", "result", k.ID)
				if code != 4 || !strings.Contains(out, "reason: interrupted") {
					t.Errorf("result %s: exit %d, %q; want exit 4 and reason: interrupted", k.ID, code, out)
				}
			}
		})
	}
}

// TestTUIRejectedPermission: the server makes bash ask; the child's ask is
// rejected, which ends its run: the child is denied (⊖) on the screen and
// in `octop tree --json` (reason denied). Both versions end the run at
// the rejected call (its reply finishes on tool-calls, no later reply);
// 1.1.65 words the call's error "Error: The user rejected permission …".
func TestTUIRejectedPermission(t *testing.T) {
	parallel(t)
	tuiRequireTmux(t)
	for _, v := range harness.Versions() {
		t.Run(v, func(t *testing.T) {
			t.Parallel() // each version on a server of its own
			s := harness.Start(t, harness.Config{Version: v, StartTimeout: 3 * time.Minute, Extra: map[string]any{
				"permission": map[string]any{"*": "allow", "bash": "ask"},
			}})
			tm := tuiStart(t, 160, 48, "--server", s.URL)
			tm.waitFor("octop to connect", func(sc string) bool { return strings.Contains(sc, "● connected") })
			c := newClient(t, s)
			root := prompt(t, c, "deny root", `FANOUT k=1 agent=general desc=asker child="LEAF steps=1 sleep=0.1"`)
			kid := waitChildren(t, c, root.ID, 1)[0]
			var ask wire.PermissionRequest
			actWaitFor(t, "the child's bash ask", func() (bool, error) {
				ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(10*time.Second))
				defer cancel()
				ps, err := c.Permissions(ctx)
				i := slices.IndexFunc(ps, func(p wire.PermissionRequest) bool { return p.SessionID == kid.ID })
				if i >= 0 {
					ask = ps[i]
				}
				return i >= 0, err
			})
			tm.waitFor("the child waiting on you", func(sc string) bool {
				return strings.Contains(rowOf(sc, "asker 1 @general"), "? asker 1")
			})
			ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(30*time.Second))
			defer cancel()
			if err := c.ReplyPermission(ctx, ask.ID, client.ReplyReject, ""); err != nil {
				t.Fatal(err)
			}
			tm.waitFor("the child denied", func(sc string) bool {
				return strings.Contains(rowOf(sc, "asker 1 @general"), "⊖ asker 1")
			})
			actWaitFor(t, "tree --json to say denied", func() (bool, error) {
				n := treeNodes(t, s.URL)[kid.ID]
				return n != nil && n.Status == "error" && n.Reason == "denied", nil
			})
		})
	}
}
