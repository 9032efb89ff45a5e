package e2e

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/record"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// rowFacts are what a row says that a replay must say the same: the mark,
// the title with its agent, and the tool count. Spinners and elapsed
// times are left out: they move.
var rowFacts = regexp.MustCompile(`([✓✗?↻]) ((?:worker \d @general)|before octop\b|live root\b).*?(\d+ tools?)`)

// facts collects rowFacts of every row of the screen, by title.
func facts(screen string) map[string]string {
	out := map[string]string{}
	for _, l := range strings.Split(screen, "\n") {
		if m := rowFacts.FindStringSubmatch(l); m != nil {
			out[m[2]] = m[1] + " " + m[3]
		}
	}
	return out
}

// TestRecordThenReplay records a live run with --record (a session that
// finished before octop started, so it comes from the snapshot, and a
// live fan-out), then replays the file: the same sessions show with the
// same marks and tool counts.
func TestRecordThenReplay(t *testing.T) {
	parallel(t)
	tuiRequireTmux(t)
	s := harness.Start(t, harness.Config{Version: harness.V118})
	c := newClient(t, s)
	prompt(t, c, "before octop", `FANOUT k=1 agent=general desc=worker child="LEAF steps=1 sleep=0.1"`)
	waitAllIdle(t, c, 2, "the first root to finish")

	path := filepath.Join(t.TempDir(), "run.ndjson.gz")
	live := tuiStart(t, 160, 48, "--server", s.URL, "--record", path)
	live.waitFor("octop to connect", func(sc string) bool { return strings.Contains(sc, "● connected") })
	prompt(t, c, "live root", `FANOUT k=3 agent=general desc=worker child="LEAF steps=2 sleep=0.1"`)
	waitAllIdle(t, c, 6, "the live run to finish on the server")
	want := map[string]string{}
	live.waitFor("every session done", func(sc string) bool {
		want = facts(sc)
		if len(want) != 5 { // before octop, its worker 1 shares a title with the live one's: 1 + live root + 3
			return false
		}
		for _, f := range want {
			if !strings.HasPrefix(f, "✓") {
				return false
			}
		}
		return true
	})
	if _, err := live.run("send-keys", "-t", "octop", "q"); err != nil {
		t.Fatal(err)
	}
	rec := closedRecording(t, path)
	kinds := map[record.Kind]int{}
	for _, e := range rec.Entries {
		kinds[e.Kind]++
	}
	if kinds[record.KindSnapshot] == 0 || kinds[record.KindEvent] == 0 || kinds[record.KindConn] == 0 {
		t.Fatalf("the recording lacks snapshots, events or connection changes: %v", kinds)
	}

	replayed := tuiStart(t, 160, 48, "--replay", path, "--speed", "32")
	replayed.waitFor("the replay to show what the live run showed", func(sc string) bool {
		got := facts(sc)
		for title, f := range want {
			if got[title] != f {
				return false
			}
		}
		return len(got) == len(want)
	})
	if _, err := replayed.run("send-keys", "-t", "octop", "x"); err != nil {
		t.Fatal(err)
	}
	replayed.waitFor("x to answer read-only", func(sc string) bool { return strings.Contains(sc, "replay: read-only") })
}

// waitAllIdle waits, with room for a loaded machine, until the server
// lists at least n sessions and none of them runs.
func waitAllIdle(t *testing.T, c *client.Client, n int, what string) {
	t.Helper()
	waitREST(t, 4*tuiWait, what, func(ctx context.Context) (bool, error) {
		all, err := c.Sessions(ctx)
		if err != nil || len(all) < n {
			return false, err
		}
		st, err := c.Status(ctx)
		for _, v := range st {
			if v.Type != wire.StatusIdle {
				return false, err
			}
		}
		return err == nil, err
	})
}

// closedRecording reads the recording at path once octop has closed it
// (the file reads whole, not cut short).
func closedRecording(t *testing.T, path string) record.Recording {
	t.Helper()
	var rec record.Recording
	testwait.Eventually(t, func() bool {
		f, err := os.Open(path)
		if err != nil {
			return false
		}
		defer f.Close()
		rec, err = record.Read(f)
		return err == nil && !rec.Truncated
	}, tuiWait, "the recording to be closed")
	return rec
}
