package hook

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/watchdog"
)

type collect struct {
	mu  sync.Mutex
	got []Result
	c   chan struct{}
}

func newCollect() *collect { return &collect{c: make(chan struct{}, 100)} }

func (c *collect) report(r Result) {
	c.mu.Lock()
	c.got = append(c.got, r)
	c.mu.Unlock()
	c.c <- struct{}{}
}

func (c *collect) wait(t *testing.T, n int) []Result {
	t.Helper()
	deadline := time.After(testwait.Scale(20 * time.Second))
	for i := 0; i < n; i++ {
		select {
		case <-c.c:
		case <-deadline:
			t.Fatalf("only %d of %d hook results came", i, n)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Result(nil), c.got...)
}

func TestHookEnvironment(t *testing.T) {
	out := filepath.Join(t.TempDir(), "env")
	c := newCollect()
	h := New(`env | grep -E '^OCTOP_(EVENT|SERVER|SESSION|ROOT|TITLE|AGENT|REASON)=' | sort > `+out, "http://127.0.0.1:4096", 0, c.report)
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

// A hook that fails says how, with what it wrote; one that outlives its
// timeout is stopped and says so. Each has its own hook: on a loaded
// machine even the failing one's shell can take longer to start than the
// other's short timeout.
func TestHookFailureAndTimeout(t *testing.T) {
	c := newCollect()
	h := New(`echo nope >&2; exit 3`, "", testwait.Scale(20*time.Second), c.report)
	h.Run(watchdog.Event{Name: "session.done"})
	r := c.wait(t, 1)[0]
	h.Close()
	if r.Err == nil || r.Err.Error() != "hook failed: exit status 3" || r.Out != "nope" {
		t.Errorf("failure: %v %q", r.Err, r.Out)
	}

	c = newCollect()
	h = New(`sleep 30`, "", 200*time.Millisecond, c.report)
	h.Run(watchdog.Event{Name: "session.failed"})
	r = c.wait(t, 1)[0]
	h.Close()
	if r.Err == nil || !strings.Contains(r.Err.Error(), "timed out after 200ms") {
		t.Errorf("timeout: %v", r.Err)
	}
}

// Run never blocks, however many events come while the workers are busy:
// what does not fit the queue is reported as skipped.
func TestHookNeverBlocks(t *testing.T) {
	c := newCollect()
	release := filepath.Join(t.TempDir(), "go")
	h := New(`while [ ! -e `+release+` ]; do sleep 0.05; done`, "", testwait.Scale(20*time.Second), c.report)
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
	case <-time.After(testwait.Scale(10 * time.Second)):
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
	h := New(`sleep 60`, "", time.Hour, c.report)
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

// TestHookRunsDespiteNUL: a NUL in a title (which no environment can
// hold) or an escape sequence reaches the hook as its picture, and the
// hook runs: a hostile agent cannot silence the alert.
func TestHookRunsDespiteNUL(t *testing.T) {
	out := filepath.Join(t.TempDir(), "title")
	c := newCollect()
	h := New(`printf '%s' "$OCTOP_TITLE" > `+out, "http://127.0.0.1:4096", 0, c.report)
	h.Run(watchdog.Event{Name: "session.failed", ID: "ses_c", Title: "nul\x00 esc\x1b]0;x\x07 end"})
	r := c.wait(t, 1)
	h.Close()
	if r[0].Err != nil {
		t.Fatalf("the hook did not run: %v", r[0].Err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), "nul␀ esc␛]0;x␇ end"; got != want {
		t.Errorf("OCTOP_TITLE = %q, want %q", got, want)
	}
}

// TestHookOfAHugeTitle: a title of 50 MB (a server's) reaches the hook cut
// to MaxEnvValue, so the hook still runs (Linux refuses a variable over
// 128 KiB); and a hook that prints without end is kept to its first
// bytes, whatever it prints before its timeout.
func TestHookOfAHugeTitle(t *testing.T) {
	title := strings.Repeat("é", 25<<20)
	env := Env(watchdog.Event{Name: "session.failed", ID: "ses_a", Title: title}, "http://h")
	for _, kv := range env {
		if strings.HasPrefix(kv, "OCTOP_TITLE=") {
			v := strings.TrimPrefix(kv, "OCTOP_TITLE=")
			if len(v) > MaxEnvValue || !strings.HasSuffix(v, "é…") {
				t.Errorf("OCTOP_TITLE is %d bytes ending %q, want at most %d ending in a whole é and …", len(v), v[max(len(v)-8, 0):], MaxEnvValue)
			}
		}
	}
	c := newCollect()
	h := New(`printf %s "$OCTOP_TITLE" | wc -c; yes`, "http://h", testwait.Scale(2*time.Second), c.report)
	h.Run(watchdog.Event{Name: "session.failed", ID: "ses_a", Title: title})
	r := c.wait(t, 1)
	h.Close()
	n, _ := strconv.Atoi(strings.TrimSpace(r[0].Out))
	if r[0].Err == nil || !strings.Contains(r[0].Err.Error(), "timed out") || n < MaxEnvValue-4 || n > MaxEnvValue {
		t.Errorf("hook = %q, %v; want it to run, see about %d bytes of title, then time out", r[0].Out, r[0].Err, MaxEnvValue)
	}
}

// TestCappedKeepsItsFirstBytes: what a hook prints past maxOutput is
// taken and dropped, never kept or refused.
func TestCappedKeepsItsFirstBytes(t *testing.T) {
	c := &capped{max: maxOutput}
	chunk := []byte(strings.Repeat("y\n", 32<<10))
	for range 100 {
		if n, err := c.Write(chunk); n != len(chunk) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if c.Len() != maxOutput {
		t.Errorf("kept %d bytes of 6 MB, want %d", c.Len(), maxOutput)
	}
}
