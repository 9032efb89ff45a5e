package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// TestListsEverySession: a real 1.18 server's GET /session lists only
// the 100 most recently updated sessions unless the request names a
// limit. On a server of 120 sessions, the client's list and `octop tree
// --json` hold all 120, on every version.
func TestListsEverySession(t *testing.T) {
	for _, v := range harness.Versions() {
		t.Run(v, func(t *testing.T) {
			t.Parallel() // a server of its own: 120 sessions would crowd the shared one
			s := harness.Start(t, harness.Config{Version: v})
			c := newClient(t, s)
			ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(2*time.Minute))
			defer cancel()
			const n = 120
			for i := range n {
				if _, err := c.CreateSession(ctx, client.CreateSessionRequest{Title: fmt.Sprintf("listed %d", i)}); err != nil {
					t.Fatal(err)
				}
			}
			all, err := c.Sessions(ctx)
			if err != nil || len(all) != n {
				t.Fatalf("the client listed %d sessions (err %v), want %d", len(all), err, n)
			}
			code, out, errs := actOctop(t, s.URL, "", "tree", "--json")
			var roots []*live.Node
			if code != 0 || json.Unmarshal([]byte(out), &roots) != nil {
				t.Fatalf("tree --json: exit %d, stderr %q", code, errs)
			}
			if len(roots) != n {
				t.Errorf("tree --json printed %d roots, want %d", len(roots), n)
			}
		})
	}
}
