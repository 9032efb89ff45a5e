package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// The TUI test runs the real octop binary in a real terminal (tmux) against
// a real opencode serve driven by the fake model, and reads the screen the
// way a person would: with tmux capture-pane.

// tuiWait bounds every condition the TUI test waits for. Generous: the
// machine may be busy with other tests.
const tuiWait = 90 * time.Second

var tuiBin struct {
	once sync.Once
	path string
	err  error
}

// tuiOctopBinary builds cmd/octop once per test binary.
func tuiOctopBinary(t *testing.T) string {
	t.Helper()
	tuiBin.once.Do(func() {
		dir, err := os.MkdirTemp("", "octop-tui-bin-")
		if err != nil {
			tuiBin.err = err
			return
		}
		tuiBin.path = filepath.Join(dir, "octop")
		_, file, _, _ := runtime.Caller(0)
		cmd := exec.Command("go", "build", "-o", tuiBin.path, "./cmd/octop")
		cmd.Dir = filepath.Dir(filepath.Dir(file))
		if out, err := cmd.CombinedOutput(); err != nil {
			tuiBin.err = fmt.Errorf("go build ./cmd/octop: %v\n%s", err, out)
		}
	})
	if tuiBin.err != nil {
		t.Fatalf("%v", tuiBin.err)
	}
	return tuiBin.path
}

// tuiRequireTmux fails when harness.Required (make test, which installs
// tmux), and skips elsewhere.
func tuiRequireTmux(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("tmux")
	if err == nil {
		return p
	}
	if harness.Required() {
		t.Fatalf("tmux is not installed; `make test` installs it (apt-get install tmux)")
	}
	t.Skip("tmux is not installed; run `make test`, which installs it")
	return ""
}

// tuiTerm is octop running in a detached tmux session on a private tmux
// server, so the test touches no one's own tmux.
type tuiTerm struct {
	t      *testing.T
	tmux   string
	socket string
	last   string
}

func tuiStart(t *testing.T, width, height int, args ...string) *tuiTerm {
	t.Helper()
	tm := &tuiTerm{t: t, tmux: tuiRequireTmux(t), socket: fmt.Sprintf("octop-e2e-%d-%d", os.Getpid(), time.Now().UnixNano())}
	cmdline := strings.Join(append([]string{tuiOctopBinary(t)}, args...), " ")
	// The pane stays when octop exits, so a crash's last words (a panic's
	// stack) can be read instead of a bare "no server running".
	if out, err := tm.run("new-session", "-d", "-s", "octop", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height),
		"env TERM=xterm-256color "+cmdline, ";", "set-option", "-t", "octop", "remain-on-exit", "on"); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last screen:\n%s", tm.last)
		}
		_, _ = tm.run("kill-server")
	})
	return tm
}

func (tm *tuiTerm) run(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(10*time.Second))
	defer cancel()
	out, err := exec.CommandContext(ctx, tm.tmux, append([]string{"-L", tm.socket}, args...)...).CombinedOutput()
	return string(out), err
}

// screen is the pane's text now.
func (tm *tuiTerm) screen() string {
	tm.t.Helper()
	out, err := tm.run("capture-pane", "-p", "-t", "octop")
	if err != nil {
		tm.t.Fatalf("tmux capture-pane: %v\n%s", err, out)
	}
	tm.last = out
	if dead, _ := tm.run("display-message", "-p", "-t", "octop", "#{pane_dead} #{pane_dead_status}"); strings.HasPrefix(dead, "1") {
		hist, _ := tm.run("capture-pane", "-p", "-S", "-", "-t", "octop")
		tm.t.Fatalf("octop exited (status %s) while the test still watched it; its terminal:\n%s", strings.TrimSpace(dead[1:]), hist)
	}
	return out
}

// waitFor polls the screen until cond holds, failing at the deadline.
func (tm *tuiTerm) waitFor(what string, cond func(screen string) bool) string {
	tm.t.Helper()
	var s string
	testwait.Eventually(tm.t, func() bool { s = tm.screen(); return cond(s) }, tuiWait, "%s", what)
	return s
}

// restartServer stops s, waits for octop to say the server is gone, and
// starts s again on its port: octop's next connection is a reconnect.
func (tm *tuiTerm) restartServer(s *harness.Server) {
	tm.t.Helper()
	if err := s.Stop(); err != nil {
		tm.t.Fatal(err)
	}
	gone := regexp.MustCompile(`disconnected \d+s, (retrying in|connecting)`)
	tm.waitFor("octop to notice the server is gone", gone.MatchString)
	if err := s.Restart(); err != nil {
		tm.t.Fatal(err)
	}
}

// rowOf is the tree row of the session titled title, or "". The two
// header lines are skipped: the selection and the last notification may
// name the same session.
func rowOf(screen, title string) string {
	for i, l := range strings.Split(screen, "\n") {
		if i >= 2 && strings.Contains(l, title) {
			return l
		}
	}
	return ""
}

func TestTUIFanOut(t *testing.T) {
	parallel(t)
	tuiRequireTmux(t)
	s := harness.Start(t, harness.Config{Version: harness.V118})
	tm := tuiStart(t, 160, 48, "--server", s.URL)
	tm.waitFor("octop to connect", func(sc string) bool { return strings.Contains(sc, "● connected") })

	c := newClient(t, s)
	// Each worker runs two bash steps of 3 s: long enough for the screen to
	// show them running.
	root := prompt(t, c, "tui fan-out root", `FANOUT k=4 agent=general desc=worker child="LEAF steps=2 sleep=3"`)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(10*time.Second))
		defer cancel()
		_ = c.Abort(ctx, root.ID)
	})

	workers := []string{"worker 1", "worker 2", "worker 3", "worker 4"}
	// Every worker appears under the root: after the root's row, drawn
	// with a tree guide, with its agent badge.
	guide := regexp.MustCompile(`^\s*[├└]─`)
	tm.waitFor("all four workers under the root", func(sc string) bool {
		lines := strings.Split(sc, "\n")
		rootAt := -1
		for i, l := range lines {
			if i >= 2 && strings.Contains(l, "tui fan-out root") { // below the header
				rootAt = i
				break
			}
		}
		if rootAt < 0 {
			return false
		}
		for _, w := range workers {
			found := false
			for _, l := range lines[rootAt+1:] {
				if strings.Contains(l, w+" @general") && guide.MatchString(l) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	})

	// Each worker's bash call shows on its row while it runs. The workers
	// run in parallel, so the screen is read until each has been seen.
	seen := map[string]bool{}
	tm.waitFor("every worker's running bash call", func(sc string) bool {
		for _, w := range workers {
			if row := rowOf(sc, w+" @general"); strings.Contains(row, "⟩ bash") {
				seen[w] = true
			}
		}
		return len(seen) == len(workers)
	})

	// At the end each worker has its done mark.
	tm.waitFor("every worker done", func(sc string) bool {
		for _, w := range workers {
			if !strings.Contains(rowOf(sc, w+" @general"), "✓ "+w) {
				return false
			}
		}
		return true
	})
}

// TestTUIWaitsForServer starts octop before the server: it must open, say
// why it cannot connect and when it tries again, then connect on its own
// once the server is up.
func TestTUIWaitsForServer(t *testing.T) {
	parallel(t)
	tuiRequireTmux(t)
	harness.RequireBinary(t, harness.V118)
	port, err := harness.FreePort()
	if err != nil {
		t.Fatal(err)
	}

	tm := tuiStart(t, 100, 30, "--server", fmt.Sprintf("http://127.0.0.1:%d", port))
	tm.waitFor("the connection error and a retry countdown", func(sc string) bool {
		return strings.Contains(sc, "cannot reach OpenCode") && regexp.MustCompile(`reconnecting in \d+s`).MatchString(sc)
	})
	harness.Start(t, harness.Config{Version: harness.V118, Port: port})
	tm.waitFor("octop to connect on its own", func(sc string) bool {
		return strings.Contains(sc, "● connected") && strings.Contains(sc, "OpenCode 1.18.33")
	})
}

// TestTUIResyncKeepsSelection restarts the server under a running octop:
// it reconnects, re-reads the tree and keeps the selected session.
func TestTUIResyncKeepsSelection(t *testing.T) {
	parallel(t)
	tuiRequireTmux(t)
	s := harness.Start(t, harness.Config{Version: harness.V118})
	tm := tuiStart(t, 160, 48, "--server", s.URL)
	tm.waitFor("octop to connect", func(sc string) bool { return strings.Contains(sc, "● connected") })

	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(tuiWait))
	defer cancel()
	c := newClient(t, s)
	prompt(t, c, "resync root", `FANOUT k=2 agent=general desc=worker child="LEAF steps=1 sleep=0.5"`)
	tm.waitFor("both workers done", func(sc string) bool {
		return strings.Contains(sc, "✓ worker 1") && strings.Contains(sc, "✓ worker 2")
	})
	// The selection line is the header's second line.
	selected := func(sc string) string {
		lines := strings.Split(sc, "\n")
		if len(lines) < 2 {
			return ""
		}
		return lines[1]
	}
	if _, err := tm.run("send-keys", "-t", "octop", "G"); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("worker 2 selected", func(sc string) bool { return strings.HasPrefix(selected(sc), "worker 2") })

	tm.restartServer(s)
	// A session made after the restart shows only through the new stream
	// and resync: once it is on screen, octop has reconnected.
	if _, err := c.CreateSession(ctx, client.CreateSessionRequest{Title: "made after the restart"}); err != nil {
		t.Fatalf("create a session after the restart: %v", err)
	}
	sc := tm.waitFor("the new session after reconnecting", func(sc string) bool {
		return strings.Contains(sc, "● connected") && strings.Contains(sc, "made after the restart")
	})
	if got := selected(sc); !strings.HasPrefix(got, "worker 2") {
		t.Fatalf("after the reconnect the selection is %q, want worker 2 still", got)
	}
}
