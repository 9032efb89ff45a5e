package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/dev/tmux"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/wire"
)

// proc is one measured process: a pane's program or curl.
type proc struct {
	name  string
	pane  string // tmux session, "" for curl
	pid   int
	octop bool
	trace string // octop's OCTOP_TRACE file; "" if this octop writes none (one older than the trace)
	sent  []int64
	use   usage
	lat   latencies
}

// result is one run's figures.
type result struct {
	procs  []*proc // octop, [octop baseline], attach, curl
	wall   time.Duration
	events int
}

const rootTitle = "benchlive fan-out"

// runOnce does one measured run on a fresh server.
func runOnce(c config) (result, error) {
	var r result
	srv, err := harness.New(harness.Config{Version: harness.V118, StartTimeout: 3 * time.Minute})
	if err != nil {
		return r, err
	}
	defer srv.Close()
	cl, err := client.New(client.Options{BaseURL: srv.URL})
	if err != nil {
		return r, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	// A server on a loaded machine can take longer than the client's
	// timeout to answer its first requests: ask again until the deadline.
	var root wire.Session
	err = retry(ctx, func() (err error) {
		root, err = cl.CreateSession(ctx, client.CreateSessionRequest{Title: rootTitle})
		return err
	})
	if err != nil {
		return r, err
	}

	dir, err := os.MkdirTemp("", "benchlive-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)
	tm := tmux.Server{Socket: fmt.Sprintf("benchlive-%d-%d", os.Getpid(), time.Now().UnixNano())}
	defer tm.Kill()
	procs, curlOut, stopCurl, err := startAll(c, srv, root.ID, dir, tm)
	if err != nil {
		return r, err
	}
	defer stopCurl()
	r.procs = procs
	if err := waitReady(ctx, tm, curlOut, procs); err != nil {
		return r, err
	}

	if err := startMeasuring(procs); err != nil {
		return r, err
	}
	eventsBefore := countEvents(curlOut)
	t0 := time.Now()
	script := fmt.Sprintf(`FANOUT k=%d agent=general desc=worker child="LEAF steps=%d sleep=%g"`, c.children, c.steps, c.sleep)
	if err := retry(ctx, func() error {
		return cl.PromptAsync(ctx, root.ID, client.PromptRequest{Parts: []client.TextPartInput{{Text: script}}})
	}); err != nil {
		return r, err
	}
	kc, err := keyClientOf(tm)
	if err != nil {
		return r, err
	}
	defer kc.close()
	keysDone := make(chan struct{})
	stopKeys := make(chan struct{})
	go func() { pressKeys(kc, procs, c.keyEvery, stopKeys); close(keysDone) }()
	err = waitFanOut(ctx, srv)
	close(stopKeys)
	<-keysDone
	if err != nil {
		return r, err
	}
	r.wall = time.Since(t0)
	for _, p := range procs {
		u := measure(p.pid)
		p.use = usage{cpu: u.cpu - p.use.cpu, hwmKB: u.hwmKB}
	}
	r.events = countEvents(curlOut) - eventsBefore

	return r, quitAll(ctx, tm, procs)
}

// quitAll quits every octop and reads the latency trace of each that kept
// one.
func quitAll(ctx context.Context, tm tmux.Server, procs []*proc) error {
	for _, p := range procs {
		if !p.octop {
			continue
		}
		if err := quitOctop(ctx, tm, p.pane); err != nil {
			return err
		}
		if p.trace == "" {
			continue
		}
		var err error
		if p.lat, err = readTrace(p.trace, p.sent); err != nil {
			return err
		}
	}
	return nil
}

// startMeasuring resets each process's peak RSS and notes its CPU so far.
func startMeasuring(procs []*proc) error {
	for _, p := range procs {
		if err := resetPeak(p.pid); err != nil {
			return err
		}
		p.use = measure(p.pid)
	}
	return nil
}

// startAll starts octop (and the baseline octop) and attach in tmux panes
// and curl on the stream.
func startAll(c config, srv *harness.Server, rootID, dir string, tm tmux.Server) (procs []*proc, curlOut string, stop func(), err error) {
	stop = func() {}
	octops := []*proc{{name: "octop", pane: "octop", octop: true, trace: filepath.Join(dir, "trace")}}
	bins := []string{c.octop}
	for i, b := range strings.Split(c.baseline, ",") {
		if b == "" {
			continue
		}
		name := fmt.Sprintf("base%d", i+1)
		octops = append(octops, &proc{name: "octop " + name, pane: name, octop: true, trace: filepath.Join(dir, "trace-"+name)})
		bins = append(bins, b)
	}
	for i, p := range octops {
		bin, err := filepath.Abs(bins[i])
		if err != nil {
			return nil, "", stop, err
		}
		env := "OCTOP_TRACE=" + p.trace
		if c.cpuprofile != "" && i == 0 {
			env += " OCTOP_CPUPROFILE=" + filepath.Join(c.cpuprofile, fmt.Sprintf("octop-%d.prof", time.Now().Unix()))
		}
		args := "--server " + srv.URL
		if c.record != "" && i == 0 {
			args += " --record " + filepath.Join(c.record, fmt.Sprintf("octop-%d.rec", time.Now().Unix()))
		}
		p.pid, err = tm.Start(p.pane, c.width, c.height, fmt.Sprintf("env TERM=xterm-256color %s %s %s",
			env, bin, args))
		if err != nil {
			return nil, "", stop, err
		}
		procs = append(procs, p)
	}
	bin, err := harness.Binary(harness.V118)
	if err != nil {
		return nil, "", stop, err
	}
	// attach runs as the server's user would: same home and XDG dirs.
	d := srv.DataDir
	attach := &proc{name: "opencode attach", pane: "attach"}
	attach.pid, err = tm.Start("attach", c.width, c.height, fmt.Sprintf(
		"env TERM=xterm-256color HOME=%s XDG_CONFIG_HOME=%s XDG_DATA_HOME=%s XDG_CACHE_HOME=%s XDG_STATE_HOME=%s %s attach %s --session %s --dir %s",
		filepath.Join(d, "home"), filepath.Join(d, "config"), filepath.Join(d, "data"), filepath.Join(d, "cache"),
		filepath.Join(d, "state"), bin, srv.URL, rootID, srv.Dir))
	if err != nil {
		return nil, "", stop, err
	}
	procs = append(procs, attach)
	curlOut = filepath.Join(dir, "curl.out")
	out, err := os.Create(curlOut)
	if err != nil {
		return nil, "", stop, err
	}
	cmd := exec.Command("curl", "-sN", srv.URL+"/event")
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		out.Close()
		return nil, "", stop, fmt.Errorf("start curl: %w", err)
	}
	procs = append(procs, &proc{name: "curl -N /event", pid: cmd.Process.Pid})
	stop = func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		out.Close()
	}
	return procs, curlOut, stop, nil
}

// waitReady waits until each octop shows the root, attach shows its
// screen, curl has the stream, and all have gone quiet (attach spends
// seconds starting up; that is not what is measured).
func waitReady(ctx context.Context, tm tmux.Server, curlOut string, procs []*proc) error {
	ready := func() bool {
		for _, p := range procs {
			if p.octop && !strings.Contains(tm.Screen(p.pane), rootTitle) {
				return false
			}
		}
		b, _ := os.ReadFile(curlOut)
		return len(strings.TrimSpace(tm.Screen("attach"))) > 0 && strings.Contains(string(b), "server.connected")
	}
	if err := poll(ctx, 100*time.Millisecond, ready); err != nil {
		return fmt.Errorf("waiting for octop, attach and curl to start: %w\noctop:\n%s\nattach:\n%s",
			err, tm.Screen("octop"), tm.Screen("attach"))
	}
	for _, p := range procs {
		if _, err := os.Stat(p.trace); p.octop && err != nil {
			p.trace = "" // an octop from before OCTOP_TRACE: CPU and memory only
		}
	}
	last := make([]float64, len(procs))
	quiet := 0
	return poll(ctx, 500*time.Millisecond, func() bool {
		busy := false
		for i, p := range procs {
			u := measure(p.pid).cpu
			if u-last[i] > 0.02 {
				busy = true
			}
			last[i] = u
		}
		if busy {
			quiet = 0
		} else {
			quiet++
		}
		return quiet >= 3
	})
}

// retry calls f until it succeeds or ctx ends, returning its last error.
func retry(ctx context.Context, f func() error) error {
	var last error
	err := poll(ctx, time.Second, func() bool {
		last = f()
		return last == nil
	})
	if err != nil {
		return fmt.Errorf("%w (last error: %v)", err, last)
	}
	return nil
}

// poll checks cond every interval until it holds or ctx ends.
func poll(ctx context.Context, every time.Duration, cond func() bool) error {
	for !cond() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(every):
		}
	}
	return nil
}

// waitFanOut waits for the root to go busy and then for the whole server
// to be idle again.
func waitFanOut(ctx context.Context, srv *harness.Server) error {
	busy := func() bool {
		st, err := srv.Statuses(ctx)
		return err == nil && len(st) > 0
	}
	if err := poll(ctx, 50*time.Millisecond, busy); err != nil {
		return fmt.Errorf("the fan-out never started: %w", err)
	}
	return srv.WaitIdle(ctx)
}

// pressKeys presses j and k in turn in each octop's pane until stop
// closes, noting when each was sent (Unix ns, just before the send-keys
// command is written to tmux).
func pressKeys(kc *keyClient, procs []*proc, every time.Duration, stop <-chan struct{}) {
	keys := []string{"j", "k"}
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		case <-time.After(every):
		}
		for _, p := range procs {
			if p.octop {
				p.sent = append(p.sent, time.Now().UnixNano())
				_ = kc.send(p.pane, keys[i%2])
			}
		}
	}
}

// quitOctop presses q and waits for octop to exit (its pane ends), so its
// trace and CPU profile are written.
func quitOctop(ctx context.Context, tm tmux.Server, pane string) error {
	if err := tm.Keys(pane, "q"); err != nil {
		return err
	}
	err := poll(ctx, 100*time.Millisecond, func() bool {
		_, err := tm.Run("has-session", "-t", pane)
		return err != nil
	})
	if err != nil {
		return fmt.Errorf("%s did not exit after q: %w", pane, err)
	}
	return nil
}

// countEvents counts the data lines curl has received.
func countEvents(path string) int {
	b, _ := os.ReadFile(path)
	return strings.Count(string(b), "\ndata:") + boolInt(strings.HasPrefix(string(b), "data:"))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (r result) print(w io.Writer, run int) {
	mb := func(kb int) float64 { return float64(kb) / 1024 }
	fmt.Fprintf(w, "\nrun %d: %d events in %.1f s\n", run, r.events, r.wall.Seconds())
	fmt.Fprintf(w, "  %-22s %8s %10s\n", "", "CPU-s", "peak RSS")
	for _, p := range r.procs {
		fmt.Fprintf(w, "  %-22s %8.2f %7.1f MB\n", p.name, p.use.cpu, mb(p.use.hwmKB))
	}
	ratio := func(a, b float64) string {
		if b == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.3f", a/b)
	}
	n := len(r.procs)
	attach, curl := r.procs[n-2], r.procs[n-1]
	for _, p := range r.procs[:n-2] {
		fmt.Fprintf(w, "  %-22s %8s %10s\n", p.name+"/attach", ratio(p.use.cpu, attach.use.cpu), ratio(float64(p.use.hwmKB), float64(attach.use.hwmKB)))
		fmt.Fprintf(w, "  %-22s %8s %10s\n", p.name+"/curl", ratio(p.use.cpu, curl.use.cpu), ratio(float64(p.use.hwmKB), float64(curl.use.hwmKB)))
	}
	for _, p := range r.procs[:n-2] {
		if p.trace == "" {
			fmt.Fprintf(w, "  %s: no latency trace (an octop from before OCTOP_TRACE)\n", p.name)
			continue
		}
		fmt.Fprintf(w, "  %s: event -> screen  %s\n", p.name, summary(p.lat.events))
		fmt.Fprintf(w, "  %s: key -> screen    %s  (from send-keys)\n", p.name, summary(p.lat.keys))
		fmt.Fprintf(w, "  %s: key -> screen    %s  (from octop's Update)\n", p.name, summary(p.lat.keysIn))
		fmt.Fprintf(w, "  %s: %d events and keys changed nothing on screen (not timed)\n", p.name, p.lat.unseen)
	}
}
