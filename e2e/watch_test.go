package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// The watch tests run `octop watch` against a real server with the fake
// model scripted to run away (LOOP, HANG, FAIL times=N) and read its
// NDJSON lines as a script would.

// watchLine is one line of `octop watch --json`.
type watchLine struct {
	TS     string  `json:"ts"`
	Event  string  `json:"event"`
	ID     string  `json:"id"`
	Parent string  `json:"parent"`
	Root   string  `json:"root"`
	Title  string  `json:"title"`
	Agent  string  `json:"agent"`
	Status string  `json:"status"`
	Reason string  `json:"reason"`
	Tokens float64 `json:"tokens"`
	Cost   float64 `json:"cost"`
}

// watchProc is a running `octop watch --json`.
type watchProc struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	lines  []watchLine
	raw    []string
	stderr strings.Builder
	ready  chan struct{}
	done   chan struct{}
}

// startWatch starts `octop watch --json ARGS --server URL` and returns
// once it has read the server's sessions (its "watching" line).
func startWatch(t *testing.T, url string, args ...string) *watchProc {
	t.Helper()
	args = append(append([]string{"watch", "--json"}, args...), "--server", url)
	w := &watchProc{cmd: exec.Command(actOctopBinary(t), args...), ready: make(chan struct{}), done: make(chan struct{})}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OPENCODE_SERVER_") {
			w.cmd.Env = append(w.cmd.Env, kv)
		}
	}
	out, err := w.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errp, err := w.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var readers sync.WaitGroup
	readers.Add(2)
	go func() {
		defer readers.Done()
		sc := bufio.NewScanner(errp)
		once := sync.Once{}
		for sc.Scan() {
			w.mu.Lock()
			w.stderr.WriteString(sc.Text() + "\n")
			w.mu.Unlock()
			if strings.HasPrefix(sc.Text(), "octop watch: watching ") {
				once.Do(func() { close(w.ready) })
			}
		}
	}()
	go func() {
		defer readers.Done()
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var l watchLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Errorf("watch printed a line that is not JSON: %q", sc.Text())
			}
			w.mu.Lock()
			w.lines, w.raw = append(w.lines, l), append(w.raw, sc.Text())
			w.mu.Unlock()
		}
	}()
	go func() {
		readers.Wait()
		_ = w.cmd.Wait()
		close(w.done)
	}()
	t.Cleanup(func() {
		_ = w.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-w.done:
		case <-time.After(testwait.Scale(10 * time.Second)):
			_ = w.cmd.Process.Kill()
			<-w.done // its readers may still report to t, which must not outlive the test
		}
		t.Logf("octop %s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), strings.Join(w.snapshotRaw(), "\n"), w.errText())
	})
	select {
	case <-w.ready:
	case <-w.done:
		t.Fatalf("octop watch exited before it was watching: %s", w.errText())
	case <-time.After(testwait.Scale(actE2eWait)):
		t.Fatalf("octop watch did not start watching within %s: %s", actE2eWait, w.errText())
	}
	return w
}

func (w *watchProc) snapshot() []watchLine {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]watchLine(nil), w.lines...)
}

func (w *watchProc) snapshotRaw() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.raw...)
}

func (w *watchProc) errText() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stderr.String()
}

// waitLine waits for a line with that event about that session.
func (w *watchProc) waitLine(t *testing.T, event, id string) watchLine {
	t.Helper()
	var found watchLine
	actWaitFor(t, "watch to print "+event+" "+id, func() (bool, error) {
		for _, l := range w.snapshot() {
			if l.Event == event && l.ID == id {
				found = l
				return true, nil
			}
		}
		return false, nil
	})
	return found
}

// exitCode waits for watch to exit on its own and returns its code.
func (w *watchProc) exitCode(t *testing.T) int {
	t.Helper()
	select {
	case <-w.done:
		return w.cmd.ProcessState.ExitCode()
	case <-time.After(testwait.Scale(actE2eWait)):
		t.Fatalf("watch did not exit within %s", actE2eWait)
	}
	return -1
}

// noDuplicates fails when a transition was printed twice.
func noDuplicates(t *testing.T, lines []watchLine) {
	t.Helper()
	seen := map[string]bool{}
	for _, l := range lines {
		k := l.Event + " " + l.ID
		if seen[k] && l.Event != "session.started" && !strings.HasPrefix(l.Event, "connection.") {
			t.Errorf("printed twice: %s", k)
		}
		seen[k] = true
	}
}

// TestWatchLoopAbortsOnlyThatChild: three children, one calling the same
// command over and over. The loop mark comes within --loop calls,
// --abort-on loop stops exactly that child (its siblings run on), the
// abort's reason is printed, and the --exec hook runs with the event in
// its environment.
func TestWatchLoopAbortsOnlyThatChild(t *testing.T) {
	s := harness.Shared(t, harness.V118)
	ctx := actCtxFor(t)
	c := actNewClient(t, s)
	defer actStopAll(c)
	hookOut := filepath.Join(t.TempDir(), "hook.env")
	hook := fmt.Sprintf(`env | grep '^OCTOP_' | sort >> %s; echo --- >> %s`, hookOut, hookOut)
	const loopN = 3
	w := startWatch(t, s.URL, "--loop", fmt.Sprint(loopN), "--abort-on", "loop", "--exec", hook)

	root := actNewRoot(t, ctx, c, "octop e2e watchdog")
	prompts := []string{`LOOP cmd="sleep 0.3; echo same again"`, "RUNAWAY sleep=0.3", "RUNAWAY sleep=0.3"}
	var ids []string
	for i, p := range prompts {
		kid, err := live.Launch(ctx, c, task.LaunchRequest{Parent: root.ID, Agent: "general",
			Description: fmt.Sprintf("watched %d", i+1), Prompt: p})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, kid.ID)
	}
	loop := w.waitLine(t, "runaway.loop", ids[0])
	if loop.Root != root.ID || loop.Parent != root.ID || !strings.Contains(loop.Reason, `"sleep 0.3; echo same again"`) {
		t.Errorf("runaway.loop line: %+v", loop)
	}
	ab := w.waitLine(t, "session.aborted", ids[0])
	if ab.Reason != "aborted by octop: loop" {
		t.Errorf("aborted with reason %q, want %q", ab.Reason, "aborted by octop: loop")
	}
	// The mark came within N calls: the abort left at most a call or two
	// more finished (the one running when it fired).
	if n, err := actCompletedTools(ctx, c, ids[0]); err != nil || n > loopN+2 {
		t.Errorf("the looping child finished %d calls before it was stopped (err %v), want at most %d", n, err, loopN+2)
	}
	actWaitProgress(t, ctx, c, ids[1], ids[2])
	for _, l := range w.snapshot() {
		if (l.ID == ids[1] || l.ID == ids[2]) && l.Event != "session.started" {
			t.Errorf("a sibling got %s: %+v", l.Event, l)
		}
	}
	noDuplicates(t, w.snapshot())

	var env string
	actWaitFor(t, "the hook to run for runaway.loop", func() (bool, error) {
		b, _ := os.ReadFile(hookOut)
		env = string(b)
		return strings.Contains(env, "OCTOP_EVENT=runaway.loop\n"), nil
	})
	block := env[strings.Index(env, "OCTOP_AGENT"):]
	block = block[:strings.Index(block, "---")]
	for _, want := range []string{"OCTOP_AGENT=general", "OCTOP_EVENT=runaway.loop", "OCTOP_ROOT=" + root.ID,
		"OCTOP_SERVER=" + s.URL, "OCTOP_SESSION=" + ids[0], "OCTOP_TITLE=watched 1 (@general subagent)",
		`OCTOP_REASON=bash "sleep 0.3; echo same again"`} {
		if !strings.Contains(block, want) {
			t.Errorf("hook environment lacks %q:\n%s", want, block)
		}
	}
}

// TestWatchUntilDone: a root that completes exits 0 with its session.done
// last; one that hangs is marked stalled, aborted by --abort-on stall and
// exits 4; failed tool calls in a row are an error storm.
func TestWatchUntilDone(t *testing.T) {
	s := harness.Shared(t, harness.V118)
	ctx := actCtxFor(t)
	c := actNewClient(t, s)
	defer actStopAll(c)

	t.Run("completes", func(t *testing.T) {
		// watch is watching before the run starts: a storm read from the
		// history of a run that ended first is shown, not announced.
		root := actNewRoot(t, ctx, c, "octop e2e until done")
		w := startWatch(t, s.URL, "--root", root.ID, "--until-done", "--errors", "3")
		if err := c.PromptAsync(ctx, root.ID, client.PromptRequest{Parts: []client.TextPartInput{{Text: "FAIL times=4"}}}); err != nil {
			t.Fatal(err)
		}
		if code := w.exitCode(t); code != 0 {
			t.Fatalf("exit %d, want 0\n%s", code, w.errText())
		}
		lines := w.snapshot()
		storm := w.waitLine(t, "runaway.errors", root.ID)
		if !strings.HasPrefix(storm.Reason, "3 failed tool calls in a row; last: read") {
			t.Errorf("runaway.errors reason %q", storm.Reason)
		}
		last := lines[len(lines)-1]
		if last.Event != "session.done" || last.ID != root.ID || last.Status != "complete" || last.Tokens <= 0 || last.TS == "" {
			t.Errorf("last line %+v, want the root's session.done with its tokens", last)
		}
		for _, l := range lines {
			if l.ID != "" && l.Root != root.ID {
				t.Errorf("a line outside --root: %+v", l)
			}
		}
		noDuplicates(t, lines)
	})

	t.Run("stalls and is aborted", func(t *testing.T) {
		root := actStartRoot(t, ctx, c, "octop e2e hang", "HANG secs=60")
		actWaitRun(t, ctx, c, root.ID, wire.StatusBusy)
		w := startWatch(t, s.URL, "--root", root.ID, "--until-done", "--stall", "2s", "--abort-on", "stall")
		if code := w.exitCode(t); code != 4 {
			t.Fatalf("exit %d, want 4\n%s", code, w.errText())
		}
		st := w.waitLine(t, "runaway.stall", root.ID)
		if !strings.Contains(st.Reason, "with no tool call running") {
			t.Errorf("stall reason %q", st.Reason)
		}
		ab := w.waitLine(t, "session.aborted", root.ID)
		if ab.Reason != "aborted by octop: stall" || ab.Status != "aborted" {
			t.Errorf("aborted line %+v", ab)
		}
		actWaitRun(t, ctx, c, root.ID, wire.StatusIdle)
	})
}

// TestWatchReconnect: a root aborted while watch cannot reach the server
// gets its session.aborted once, after connection.restored; nothing is
// printed twice.
func TestWatchReconnect(t *testing.T) {
	s := harness.Shared(t, harness.V118)
	ctx := actCtxFor(t)
	c := actNewClient(t, s)
	defer actStopAll(c)
	proxy := newCutProxy(t, strings.TrimPrefix(s.URL, "http://"))
	w := startWatch(t, proxy.URL())
	root := actStartRoot(t, ctx, c, "octop e2e reconnect", "RUNAWAY sleep=0.3")
	w.waitLine(t, "session.started", root.ID)

	proxy.setDown(true)
	w.waitLine(t, "connection.lost", "")
	if err := c.Abort(ctx, root.ID); err != nil {
		t.Fatal(err)
	}
	actWaitRun(t, ctx, c, root.ID, wire.StatusIdle)
	proxy.setDown(false)
	w.waitLine(t, "connection.restored", "")
	ab := w.waitLine(t, "session.aborted", root.ID)
	if ab.Status != "aborted" || ab.Reason == "" {
		t.Errorf("aborted line %+v", ab)
	}
	// Another reconnect with nothing new prints only the connection lines.
	before := len(w.snapshot())
	proxy.cut()
	actWaitFor(t, "a second restore", func() (bool, error) {
		n := 0
		for _, l := range w.snapshot() {
			if l.Event == "connection.restored" {
				n++
			}
		}
		return n == 2, nil
	})
	for _, l := range w.snapshot()[before:] {
		if !strings.HasPrefix(l.Event, "connection.") {
			t.Errorf("after a reconnect with nothing new: %+v", l)
		}
	}
	lines := w.snapshot()
	noDuplicates(t, lines)
	var order []string
	for _, l := range lines {
		// The shared server holds other tests' sessions too; each failed
		// attempt while down is a connection.retrying line, as many as it
		// takes.
		if (l.ID == root.ID || l.ID == "") && l.Event != "connection.retrying" {
			order = append(order, l.Event)
		}
	}
	want := "session.started connection.lost connection.restored session.aborted connection.lost connection.restored"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("events %q, want %q", got, want)
	}
}

// TestWatchBellReachesTheTerminal: with --notify bell, a root finishing
// rings the terminal's bell; tmux sees it (its alert-bell hook runs and
// the window's bell flag is set).
func TestWatchBellReachesTheTerminal(t *testing.T) {
	s := harness.Shared(t, harness.V118)
	ctx := actCtxFor(t)
	c := actNewClient(t, s)
	defer actStopAll(c)
	tm := tuiStart(t, 160, 20, "watch", "--notify", "bell", "--server", s.URL)
	rang := filepath.Join(t.TempDir(), "rang")
	if out, err := tm.run("set-hook", "-g", "alert-bell", "run-shell 'touch "+rang+"'"); err != nil {
		t.Fatalf("tmux set-hook: %v\n%s", err, out)
	}
	tm.waitFor("watch to be watching", func(screen string) bool { return strings.Contains(screen, "octop watch: watching") })
	if _, err := os.Stat(rang); err == nil {
		t.Fatal("the bell rang before anything happened")
	}
	root := actStartRoot(t, ctx, c, "octop e2e bell", "LEAF steps=1 sleep=0.2")
	tm.waitFor("the root's session.done line", func(screen string) bool {
		return strings.Contains(screen, "session.done") && strings.Contains(screen, root.ID)
	})
	actWaitFor(t, "tmux to see the bell", func() (bool, error) {
		_, err := os.Stat(rang)
		return err == nil, nil
	})
	if flag, err := tm.run("display-message", "-p", "-t", "octop", "#{window_bell_flag}"); err != nil || strings.TrimSpace(flag) != "1" {
		t.Errorf("window_bell_flag %q (err %v), want 1", flag, err)
	}
}
