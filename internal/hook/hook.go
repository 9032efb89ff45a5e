package hook

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/octop-dev/octop/internal/sanitize"
	"github.com/octop-dev/octop/internal/watchdog"
)

// Hook defaults: how many commands run at once, how many more may wait,
// and how long one may run.
const (
	DefaultHookParallel = 3
	DefaultHookQueue    = 32
	DefaultHookTimeout  = 10 * time.Second
)

// Result is how one run of the hook went.
type Result struct {
	Event watchdog.Event
	Err   error  // nil when the command exited 0
	Out   string // the start of what it printed, for the error line
}

// Hook runs a shell command for each event it is given, a few at a time,
// each under a timeout, without ever blocking the caller.
type Hook struct {
	cmd     string
	server  string
	timeout time.Duration
	jobs    chan watchdog.Event
	report  func(Result)
	wg      sync.WaitGroup
	ctx     context.Context
	cancel  context.CancelFunc
}

// NewHook starts the workers for cmd (run with sh -c). report is called,
// from a worker goroutine, after every run; it must not block for long.
func New(cmd, server string, timeout time.Duration, report func(Result)) *Hook {
	if timeout <= 0 {
		timeout = DefaultHookTimeout
	}
	h := &Hook{cmd: cmd, server: server, timeout: timeout, report: report,
		jobs: make(chan watchdog.Event, DefaultHookQueue)}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	for range DefaultHookParallel {
		h.wg.Add(1)
		go h.work()
	}
	return h
}

// Run queues e. When the queue is full the event is dropped and reported
// as such: a hook must never hold up the screen.
func (h *Hook) Run(e watchdog.Event) {
	select {
	case h.jobs <- e:
	default:
		h.report(Result{Event: e, Err: fmt.Errorf("hook skipped: %d runs already waiting", cap(h.jobs))})
	}
}

// Close lets queued and running commands finish (each still under its
// timeout), then returns. Later Runs are not allowed.
func (h *Hook) Close() {
	close(h.jobs)
	h.wg.Wait()
	h.cancel()
}

// Stop is Close for a program that is quitting: running commands are
// killed and queued ones skipped, so quitting never waits on a hook.
func (h *Hook) Stop() {
	h.cancel()
	h.Close()
}

func (h *Hook) work() {
	defer h.wg.Done()
	for e := range h.jobs {
		h.report(h.runOne(e))
	}
}

func (h *Hook) runOne(e watchdog.Event) Result {
	ctx, cancel := context.WithTimeout(h.ctx, h.timeout)
	defer cancel()
	c := exec.CommandContext(ctx, "sh", "-c", h.cmd)
	c.Env = append(os.Environ(), Env(e, h.server)...)
	c.WaitDelay = time.Second // a child holding the pipes open cannot hang us
	out := &capped{max: maxOutput}
	c.Stdout, c.Stderr = out, out
	err := c.Run()
	res := Result{Event: e, Out: strings.TrimSpace(firstLine(out.String()))}
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		res.Err = fmt.Errorf("hook timed out after %s", h.timeout)
	case err != nil:
		res.Err = fmt.Errorf("hook failed: %w", err)
	}
	return res
}

// maxOutput is how much of what a hook prints is kept: only its first
// line is shown, and a hook printing without end must not grow octop.
const maxOutput = 4 << 10

// capped keeps the first max bytes written to it and takes the rest
// without keeping it, so the hook never blocks on a full pipe.
type capped struct {
	bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// MaxEnvValue is the most of a value a hook's environment holds: Linux
// refuses to start a program with a variable over 128 KiB, and a title
// is whatever a server says.
const MaxEnvValue = 4 << 10

// Env is the hook's environment for e. Each value is one line cleaned as
// on the screen (sanitize.Line): a NUL, which no environment can hold,
// would stop the hook from running at all, and an escape sequence in a
// title must not reach a terminal the hook writes to. A value longer
// than MaxEnvValue is cut there, ending in "…".
func Env(e watchdog.Event, server string) []string {
	root := e.Root
	if root == "" {
		root = e.ID
	}
	env := []string{
		"OCTOP_EVENT=" + e.Name,
		"OCTOP_SERVER=" + server,
		"OCTOP_SESSION=" + e.ID,
		"OCTOP_ROOT=" + root,
		"OCTOP_TITLE=" + e.Title,
		"OCTOP_AGENT=" + e.Agent,
		"OCTOP_REASON=" + e.Reason,
	}
	for i, kv := range env {
		name, v, _ := strings.Cut(kv, "=")
		if len(v) > MaxEnvValue {
			n := MaxEnvValue - len("…")
			for n > 0 && !utf8.RuneStart(v[n]) {
				n--
			}
			v = v[:n] + "…"
		}
		env[i] = name + "=" + sanitize.Line(v)
	}
	return env
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}
