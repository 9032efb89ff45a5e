package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// TestTwoServers watches a 1.18.33 server and a 1.1.65 one (with its own
// password, given in its URL) in one screen: both groups and their roots
// are live in one tree at once; tree --json lists both with their
// server; an abort taken on the screen goes to the server that holds
// the session and leaves the other's running; killing one marks its
// group down, its root still shown, while the other stays live. It
// records all of it (--record) and replays the file.
func TestTwoServers(t *testing.T) {
	parallel(t)
	tuiRequireTmux(t)
	// Two servers start one after the other on a shared machine: give
	// each more than the default minute.
	a := harness.Start(t, harness.Config{Version: harness.V118, StartTimeout: 3 * time.Minute})
	b := harness.Start(t, harness.Config{Version: harness.V11, Password: "b-secret", StartTimeout: 3 * time.Minute})
	ca := newClient(t, a)
	cb := newClientAt(t, b.URL, b.Username, b.Password)
	onA := prompt(t, ca, "runs on a", `RUNAWAY sleep=1 max=100000`)
	onB := prompt(t, cb, "runs on b", `RUNAWAY sleep=1 max=100000`)
	bURL := strings.Replace(b.URL, "http://", "http://"+b.Username+":b-secret@", 1)
	servers := a.URL + "," + bURL

	path := filepath.Join(t.TempDir(), "two.octop")
	tm := tuiStart(t, 160, 40, "--server", servers, "--record", path)
	aHost, bHost := strings.TrimPrefix(a.URL, "http://"), strings.TrimPrefix(b.URL, "http://")
	aGroup, bGroup := "▾ 1 "+aHost+"  OpenCode 1.18.33", "▾ 2 "+bHost+"  OpenCode 1.1.65"
	tm.waitFor("both servers' groups and roots on one screen", func(sc string) bool {
		return inOrder(sc, aGroup+"  ● connected", "runs on a", bGroup+"  ● connected", "runs on b") &&
			strings.Contains(sc, "1 "+aHost+" 1.18.33 ● 1 running") && strings.Contains(sc, "2 "+bHost+" 1.1.65 ● 1 running") &&
			strings.Contains(sc, "all: 2 running")
	})

	// A loaded server can be slower than a call's 10 s: ask again until
	// both answer (a slow one fails only its own part, exit 1).
	var roots []struct{ Server, ID, Status string }
	var out string
	testwait.Eventually(t, func() bool {
		var code int
		code, out, _ = actOctop(t, "", "", "tree", "--json", "--server", servers)
		return code == 0 && json.Unmarshal([]byte(out), &roots) == nil
	}, 3*tuiWait, "tree --json to read both servers")
	got := map[string]string{}
	for _, r := range roots {
		got[r.ID] = r.Server
	}
	if got[onA.ID] != a.URL || got[onB.ID] != b.URL || strings.Contains(out, "b-secret") {
		t.Errorf("tree --json roots by server: %v; want %s on %s and %s on %s, no password", got, onA.ID, a.URL, onB.ID, b.URL)
	}

	// Abort b's root from the screen: 2 goes to b's group line, j onto
	// its root, x asks, y confirms; only b is sent the abort.
	tm.actSend("2", "j")
	tm.waitFor("b's root selected", func(sc string) bool { return strings.Contains(sc, "task_id "+onB.ID) })
	tm.actSend("x")
	tm.waitFor("the abort asked", func(sc string) bool { return strings.Contains(sc, "Abort ") })
	tm.actSend("y")
	waitREST(t, tuiWait, "b's root to stop", func(ctx context.Context) (bool, error) {
		st, err := cb.Status(ctx)
		return err == nil && !busy(st, onB.ID), err
	})
	tm.waitFor("b's root aborted on screen, a's still running beside it", func(sc string) bool {
		return strings.Contains(sc, "■ runs on b") && !strings.Contains(sc, "■ runs on a") && strings.Contains(sc, "runs on a") &&
			strings.Contains(sc, "1 "+aHost+" 1.18.33 ● 1 running") && strings.Contains(sc, bHost+" 1.1.65 ● 0 running")
	})
	if st, err := ca.Status(context.Background()); err != nil || !busy(st, onA.ID) {
		t.Fatalf("a's root stopped with b's (status %v, %v)", st, err)
	}

	if err := b.Stop(); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("b's group marked down, its root still shown; a live", func(sc string) bool {
		return inOrder(sc, aGroup+"  ● connected", "runs on a", bGroup+"  ✗ down", "runs on b") &&
			strings.Contains(sc, "1 of 2 down") && strings.Contains(sc, "1 "+aHost+" 1.18.33 ● 1 running")
	})
	tm.actSend("1")
	tm.waitFor("a's screen still connected with its root running", func(sc string) bool {
		return strings.Contains(sc, "octop  "+a.URL+"  OpenCode 1.18.33  ● connected") && strings.Contains(sc, "runs on a") &&
			!strings.Contains(sc, "■ runs on a") && strings.Contains(sc, "1 running  0 waiting")
	})
	tm.actSend("q")
	replayTwoServers(t, path, a.URL, b.URL)
}

// replayTwoServers replays what TestTwoServers recorded: the file holds
// both servers, without b's password, and the replay ends as the live
// screen did: both groups, b's root aborted and b down, a's running.
func replayTwoServers(t *testing.T, path, aURL, bURL string) {
	t.Helper()
	rec := closedRecording(t, path)
	if got := rec.Servers(); len(got) != 2 || got[0] != aURL || got[1] != bURL {
		t.Fatalf("recorded servers %v, want %s then %s", got, aURL, bURL)
	}
	if raw, err := os.ReadFile(path); err != nil || bytes.Contains(raw, []byte("b-secret")) {
		t.Fatalf("the recording (%v) holds b's password", err)
	}
	aHost, bHost := strings.TrimPrefix(aURL, "http://"), strings.TrimPrefix(bURL, "http://")
	re := tuiStart(t, 160, 40, "--replay", path, "--speed", "32")
	re.waitFor("the replay to end as the live screen did", func(sc string) bool {
		return inOrder(sc, "▾ 1 "+aHost+"  OpenCode 1.18.33  ● connected", "runs on a", "▾ 2 "+bHost+"  OpenCode 1.1.65  ✗ down", "■ runs on b") &&
			!strings.Contains(sc, "■ runs on a") && strings.Contains(sc, "1 of 2 down")
	})
	re.actSend("j", "x")
	re.waitFor("x to answer read-only", func(sc string) bool { return strings.Contains(sc, "replay: read-only") })
}

// inOrder says each of parts is in s, after the one before it.
func inOrder(s string, parts ...string) bool {
	for _, p := range parts {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return true
}

func busy(st map[string]wire.SessionStatus, id string) bool {
	s, ok := st[id]
	return ok && s.Type != wire.StatusIdle
}
