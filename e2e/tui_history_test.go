package e2e

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// TestTUIOldSessions: octop starts on a server that already holds 30+
// finished sessions (complete, failed and one aborted). Once the histories
// are read, every row has its real mark and tool count (no "…" left, no
// fake "✓ 0s"), the detail pane's state and reason for every session are
// those of `octop tree --json`, and the header's failed count is the
// number of failed, interrupted or denied sessions there.
func TestTUIOldSessions(t *testing.T) {
	parallel(t)
	tuiRequireTmux(t)
	for _, v := range harness.Versions() {
		t.Run(v, func(t *testing.T) {
			t.Parallel() // each version on a server of its own
			s := harness.Start(t, harness.Config{Version: v, StartTimeout: 3 * time.Minute})
			c := newClient(t, s)
			// The abort first, on a quiet server: with 32 runs going, a
			// loaded machine's server took more than 30 s to answer it.
			// It is aborted in the middle of a long call, or 1.1.65 may
			// end it as finished (see actWaitCallUnderWay).
			ab := prompt(t, c, "old abort 01", "RUNAWAY sleep=30")
			ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(3*actE2eWait))
			defer cancel()
			actWaitCallUnderWay(t, ctx, c, ab.ID)
			if err := c.Abort(ctx, ab.ID); err != nil {
				t.Fatal(err)
			}
			waitIdle(t, s, 3*time.Minute)
			const leaves, fails = 28, 4
			for i := 1; i <= leaves; i++ {
				prompt(t, c, fmt.Sprintf("old leaf %02d", i), "LEAF steps=1 sleep=1")
			}
			for i := 1; i <= fails; i++ {
				prompt(t, c, fmt.Sprintf("old fail %02d", i), `ERROR steps=1 sleep=0.1 status=400 msg="refused on purpose"`)
			}
			waitIdle(t, s, 3*time.Minute)

			// Idle comes before a reply is all written: on a loaded
			// machine tree --json once caught "old fail 04" idle with its
			// reply unfinished and no error yet. Wait for the server's
			// word on every run to be what the scripts made; what is
			// still wrong at the deadline fails the test.
			var nodes map[string]*live.Node
			var problems []string
			_ = testwait.Poll(func() error {
				nodes = treeNodes(t, s.URL)
				if problems = oldJSONProblems(nodes, ab.ID, leaves, fails); len(problems) > 0 {
					return errors.New(problems[0])
				}
				return nil
			}, time.Minute)
			for _, p := range problems {
				t.Error(p)
			}
			if t.Failed() {
				t.FailNow()
			}
			bad := 0
			for _, n := range nodes {
				if n.Status == "error" && n.Reason != "aborted" {
					bad++
				}
			}

			tm := tuiStart(t, 160, len(nodes)+8, "--server", s.URL)
			header := fmt.Sprintf("all %d: ", len(nodes))
			sc := tm.waitFor("every history read", func(sc string) bool {
				if !strings.Contains(sc, "● connected") || !strings.Contains(sc, header) || strings.Contains(sc, "loading") {
					return false
				}
				for _, n := range nodes {
					if f := strings.Fields(oldRow(sc, n.Title)); len(f) == 0 || f[0] == "…" {
						return false
					}
				}
				return true
			})
			if want := fmt.Sprintf("%d failed", bad); !strings.Contains(strings.Split(sc, "\n")[1], want) {
				t.Errorf("header %q, want %q (tree --json's failed, interrupted and denied)", strings.Split(sc, "\n")[1], want)
			}
			for _, n := range nodes {
				oldCheckRow(t, oldRow(sc, n.Title), n)
			}
			oldCheckDetails(t, tm, nodes)
		})
	}
}

// oldJSONProblems says how `tree --json` differs from what the scripts
// made: one aborted run, fails failed ones and leaves complete ones.
func oldJSONProblems(nodes map[string]*live.Node, aborted string, leaves, fails int) []string {
	var out []string
	if len(nodes) != leaves+fails+1 {
		out = append(out, fmt.Sprintf("tree --json holds %d sessions, want %d", len(nodes), leaves+fails+1))
	}
	failed := 0
	for _, n := range nodes {
		switch {
		case n.ID == aborted:
			if n.Status != "error" || n.Reason != "aborted" {
				out = append(out, fmt.Sprintf("tree --json on the aborted %q: %s/%s, want error/aborted", n.Title, n.Status, n.Reason))
			}
		case strings.HasPrefix(n.Title, "old fail"):
			failed++
			if n.Status != "error" || n.Reason != "APIError" || !strings.Contains(n.Error, "refused on purpose") || n.Tools.Total != 1 {
				out = append(out, fmt.Sprintf("tree --json on %q: %+v, want error/APIError with the fake's message and 1 tool", n.Title, *n))
			}
		default:
			if n.Status != "complete" || n.Reason != "" || n.Tools.Total != 1 || n.DurationMS < 1000 {
				out = append(out, fmt.Sprintf("tree --json on %q: %+v, want complete with 1 tool over at least 1s", n.Title, *n))
			}
		}
	}
	if failed != fails {
		out = append(out, fmt.Sprintf("tree --json holds %d failed sessions, want %d", failed, fails))
	}
	return out
}

// oldTreePart is a screen line left of the detail pane.
func oldTreePart(line string) string {
	if i := strings.Index(line, "│"); i >= 0 {
		return line[:i]
	}
	return line
}

// oldRow is the tree part of the row of the session titled title: the
// detail pane beside the tree names the selected session too.
func oldRow(screen, title string) string {
	for i, l := range strings.Split(screen, "\n") {
		if part := oldTreePart(l); i >= 2 && strings.Contains(part, title) {
			return part
		}
	}
	return ""
}

// oldMark is the mark the screen must draw for a `tree --json` node.
func oldMark(n *live.Node) string {
	switch n.Status {
	case "complete":
		return "✓"
	case "idle":
		return "○"
	case "running":
		return "running"
	}
	switch n.Reason {
	case "aborted":
		return "■"
	case "interrupted":
		return "⊘"
	case "denied":
		return "⊖"
	}
	return "✗"
}

var oldRight = regexp.MustCompile(`(?:(\d+) tools?)?\s+(\S+)\s*$`)

// oldCheckRow: the row's mark, tool count and elapsed time are the node's.
func oldCheckRow(t *testing.T, row string, n *live.Node) {
	t.Helper()
	part := row
	f := strings.Fields(part)
	if len(f) == 0 || f[0] != oldMark(n) {
		t.Errorf("row of %q is %q, want mark %s (tree --json: %s/%s)", n.Title, part, oldMark(n), n.Status, n.Reason)
		return
	}
	m := oldRight.FindStringSubmatch(part)
	if m == nil || m[1] != fmt.Sprint(n.Tools.Total) {
		t.Errorf("row of %q is %q, want %d tools as tree --json says", n.Title, part, n.Tools.Total)
		return
	}
	if m[2] == "…" || (n.DurationMS >= 1500 && m[2] == "0s") {
		t.Errorf("row of %q shows elapsed %q; tree --json says %d ms", n.Title, m[2], n.DurationMS)
	}
}

// oldCheckDetails walks the tree from the top with j and reads each
// session's state word and reason in the detail pane.
func oldCheckDetails(t *testing.T, tm *tuiTerm, nodes map[string]*live.Node) {
	t.Helper()
	byTitle := map[string]*live.Node{}
	for _, n := range nodes {
		byTitle[n.Title] = n
	}
	selected := func(sc string) string {
		lines := strings.Split(sc, "\n")
		if len(lines) < 2 {
			return ""
		}
		for title := range byTitle {
			if strings.HasPrefix(lines[1], title) {
				return title
			}
		}
		return ""
	}
	if _, err := tm.run("send-keys", "-t", "octop", "g"); err != nil {
		t.Fatal(err)
	}
	// Walk down with j; at the last row go back to the top with g, at
	// most twice over, so a row that moved while the walk went past it
	// is still visited (the walk checks each row, not the order).
	seen := map[string]bool{}
	prev := ""
	for range 2 * len(nodes) {
		sc := tm.waitFor("the next session selected", func(sc string) bool {
			s := selected(sc)
			return s != "" && s != prev && strings.Contains(sc, "status ")
		})
		title := selected(sc)
		seen[title] = true
		oldCheckDetail(t, sc, byTitle[title])
		prev = title
		if len(seen) == len(nodes) {
			break
		}
		key := "j"
		if title == oldLastRow(sc, byTitle) {
			key = "g"
		}
		if _, err := tm.run("send-keys", "-t", "octop", key); err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) != len(nodes) {
		t.Errorf("walked %d sessions with j, want %d", len(seen), len(nodes))
	}
}

// oldLastRow is the title of the tree's last row.
func oldLastRow(screen string, byTitle map[string]*live.Node) string {
	lines := strings.Split(screen, "\n")
	for i := len(lines) - 1; i >= 2; i-- {
		part := oldTreePart(lines[i])
		for title := range byTitle {
			if strings.Contains(part, title) {
				return title
			}
		}
	}
	return ""
}

// oldCheckDetail: the detail pane's state line names the node's state,
// and its reason line is the node's error.
func oldCheckDetail(t *testing.T, sc string, n *live.Node) {
	t.Helper()
	var status, reason string
	for _, l := range strings.Split(sc, "\n") {
		i := strings.Index(l, "│")
		if i < 0 {
			continue
		}
		pane := strings.TrimSpace(l[i+len("│"):])
		switch {
		case strings.HasPrefix(pane, "status "):
			status = strings.TrimSpace(strings.TrimPrefix(pane, "status "))
		case strings.HasPrefix(pane, "reason "):
			reason = strings.TrimSpace(strings.TrimPrefix(pane, "reason "))
		}
	}
	word := map[string]string{"✓": "complete", "✗": "failed", "■": "aborted", "⊘": "interrupted", "⊖": "denied", "○": "idle"}[oldMark(n)]
	if !strings.HasPrefix(status, oldMark(n)+" "+word) {
		t.Errorf("detail of %q: status %q, want %s %s (tree --json: %s/%s)", n.Title, status, oldMark(n), word, n.Status, n.Reason)
	}
	want := strings.TrimSuffix(n.Error, "…")
	got := strings.TrimSuffix(reason, "…")
	if n.Error == "" && reason != "" || n.Error != "" && (got == "" || !strings.HasPrefix(want, got)) {
		t.Errorf("detail of %q: reason %q, want tree --json's %q", n.Title, reason, n.Error)
	}
}
