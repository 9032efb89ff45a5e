package alert

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/watchdog"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestSequence(t *testing.T) {
	cases := []struct {
		name string
		mode Mode
		env  func(string) string
		want string
	}{
		{"none", None, env(), ""},
		{"bell", Bell, env(), "\a"},
		{"osc", OSC, env("TERM", "xterm-256color"), "\x1b]9;octop: done: fix\x07"},
		{"all", All, env(), "\x1b]9;octop: done: fix\x07\a"},
		{"vte wants 777", OSC, env("VTE_VERSION", "7600"), "\x1b]9;octop: done: fix\x07\x1b]777;notify;octop;done: fix\x07"},
		{"wezterm wants 777", OSC, env("TERM_PROGRAM", "WezTerm"), "\x1b]9;octop: done: fix\x07\x1b]777;notify;octop;done: fix\x07"},
		{"tmux wraps the OSC, not the bell", All, env("TMUX", "/tmp/x,1,0"), "\x1bPtmux;\x1b\x1b]9;octop: done: fix\x07\x1b\\\a"},
	}
	for _, c := range cases {
		if got := Sequence(c.mode, "octop", "done: fix", c.env); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	if got := Sequence(OSC, "octop", "evil\x07\x1b]0;title", env()); strings.Count(got, "\x07") != 1 || strings.Count(got, "\x1b") != 1 {
		t.Errorf("control characters leaked: %q", got)
	}
}

func TestParseMode(t *testing.T) {
	for s, want := range map[string]Mode{"none": None, "bell": Bell, "osc": OSC, "all": All, "ALL": All} {
		if m, err := ParseMode(s); err != nil || m != want {
			t.Errorf("%q: %v %v", s, m, err)
		}
	}
	if _, err := ParseMode("loud"); err == nil || err.Error() != `--notify takes none, bell, osc or all, not "loud"` {
		t.Errorf("bad mode: %v", err)
	}
}

// collect gathers hook results until n have come, or fails at a deadline.
type collect struct {
	mu  sync.Mutex
	got []HookResult
	c   chan struct{}
}

func newCollect() *collect { return &collect{c: make(chan struct{}, 100)} }

func (c *collect) report(r HookResult) {
	c.mu.Lock()
	c.got = append(c.got, r)
	c.mu.Unlock()
	c.c <- struct{}{}
}

func (c *collect) wait(t *testing.T, n int) []HookResult {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for i := 0; i < n; i++ {
		select {
		case <-c.c:
		case <-deadline:
			t.Fatalf("only %d of %d hook results came", i, n)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]HookResult(nil), c.got...)
}

func TestHookEnvironment(t *testing.T) {
	out := filepath.Join(t.TempDir(), "env")
	c := newCollect()
	h := NewHook(`env | grep -E '^OCTOP_(EVENT|SERVER|SESSION|ROOT|TITLE|AGENT|REASON)=' | sort > `+out, "http://127.0.0.1:4096", 0, c.report)
	h.Run(watchdog.Event{Name: "runaway.loop", ID: "ses_c", Root: "ses_r", Title: "grep it", Agent: "general",
		Reason: `bash "grep x" 5 times in a row`})
	r := c.wait(t, 1)
	h.Close()
	if r[0].Err != nil {
		t.Fatal(r[0].Err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := `OCTOP_AGENT=general
OCTOP_EVENT=runaway.loop
OCTOP_REASON=bash "grep x" 5 times in a row
OCTOP_ROOT=ses_r
OCTOP_SERVER=http://127.0.0.1:4096
OCTOP_SESSION=ses_c
OCTOP_TITLE=grep it
`
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
}

func TestHookFailureAndTimeout(t *testing.T) {
	c := newCollect()
	h := NewHook(`if [ "$OCTOP_EVENT" = session.done ]; then echo nope >&2; exit 3; fi; sleep 30`, "", 200*time.Millisecond, c.report)
	h.Run(watchdog.Event{Name: "session.done"})
	h.Run(watchdog.Event{Name: "session.failed"})
	got := c.wait(t, 2)
	h.Close()
	byName := map[string]HookResult{}
	for _, r := range got {
		byName[r.Event.Name] = r
	}
	if r := byName["session.done"]; r.Err == nil || r.Err.Error() != "hook failed: exit status 3" || r.Out != "nope" {
		t.Errorf("failure: %v %q", r.Err, r.Out)
	}
	if r := byName["session.failed"]; r.Err == nil || !strings.Contains(r.Err.Error(), "timed out after 200ms") {
		t.Errorf("timeout: %v", r.Err)
	}
}

// Run never blocks, however many events come while the workers are busy:
// what does not fit the queue is reported as skipped.
func TestHookNeverBlocks(t *testing.T) {
	c := newCollect()
	release := filepath.Join(t.TempDir(), "go")
	h := NewHook(`while [ ! -e `+release+` ]; do sleep 0.05; done`, "", 20*time.Second, c.report)
	n := DefaultHookParallel + DefaultHookQueue + 5
	done := make(chan struct{})
	go func() {
		for i := 0; i < n; i++ {
			h.Run(watchdog.Event{Name: "session.done"})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run blocked")
	}
	skipped := 0
	for _, r := range c.wait(t, 1) {
		if r.Err != nil && strings.Contains(r.Err.Error(), "skipped") {
			skipped++
		}
	}
	if skipped == 0 {
		t.Error("the first result should be a skip while all workers are busy")
	}
	if err := os.WriteFile(release, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	c.wait(t, n-1)
	h.Close()
}

// Stop, for a quitting screen, kills what runs and skips what waits: no
// hook holds the quit up to its timeout.
func TestHookStop(t *testing.T) {
	c := newCollect()
	h := NewHook(`sleep 60`, "", time.Hour, c.report)
	for range DefaultHookParallel + 2 {
		h.Run(watchdog.Event{Name: "session.failed"})
	}
	h.Stop()
	got := c.wait(t, DefaultHookParallel+2)
	for _, r := range got {
		if r.Err == nil || strings.Contains(r.Err.Error(), "timed out") {
			t.Errorf("a stopped hook reports %v, want it killed or skipped", r.Err)
		}
	}
}
