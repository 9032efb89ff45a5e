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
	"github.com/octop-dev/octop/e2e/harness"
)

// result is one run's figures.
type result struct {
	octop, attach, curl usage
	wall                time.Duration
	events              int
	lat                 latencies
}

const rootTitle = "benchlive fan-out"

// runOnce does one measured run on a fresh server.
func runOnce(c config) (result, error) {
	var r result
	srv, err := harness.New(harness.Config{Version: harness.V118})
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
	root, err := cl.CreateSession(ctx, client.CreateSessionRequest{Title: rootTitle})
	if err != nil {
		return r, err
	}

	dir, err := os.MkdirTemp("", "benchlive-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)
	tm := tmux{socket: fmt.Sprintf("benchlive-%d-%d", os.Getpid(), time.Now().UnixNano())}
	defer tm.kill()
	pids, curlOut, stopCurl, err := startAll(c, srv, root.ID, dir, tm)
	if err != nil {
		return r, err
	}
	defer stopCurl()
	if err := waitReady(ctx, tm, curlOut, pids); err != nil {
		return r, err
	}

	for _, pid := range pids {
		if err := resetPeak(pid); err != nil {
			return r, err
		}
	}
	before := [3]usage{measure(pids[0]), measure(pids[1]), measure(pids[2])}
	eventsBefore := countEvents(curlOut)
	t0 := time.Now()
	script := fmt.Sprintf(`FANOUT k=%d agent=general desc=worker child="LEAF steps=%d sleep=%g"`, c.children, c.steps, c.sleep)
	if err := cl.PromptAsync(ctx, root.ID, client.PromptRequest{Parts: []client.TextPartInput{{Text: script}}}); err != nil {
		return r, err
	}
	keysDone := make(chan []int64)
	stopKeys := make(chan struct{})
	go func() { keysDone <- pressKeys(tm, c.keyEvery, stopKeys) }()
	err = waitFanOut(ctx, srv)
	close(stopKeys)
	sent := <-keysDone
	if err != nil {
		return r, err
	}
	r.wall = time.Since(t0)
	after := [3]usage{measure(pids[0]), measure(pids[1]), measure(pids[2])}
	r.events = countEvents(curlOut) - eventsBefore
	r.octop, r.attach, r.curl = diff(before[0], after[0]), diff(before[1], after[1]), diff(before[2], after[2])

	trace := filepath.Join(dir, "trace")
	if err := quitOctop(ctx, tm, trace); err != nil {
		return r, err
	}
	r.lat, err = readTrace(trace, sent)
	return r, err
}

func diff(a, b usage) usage { return usage{cpu: b.cpu - a.cpu, hwmKB: b.hwmKB} }

// startAll starts octop and attach in tmux panes and curl on the stream;
// pids are octop's, attach's and curl's.
func startAll(c config, srv *harness.Server, rootID, dir string, tm tmux) (pids [3]int, curlOut string, stop func(), err error) {
	stop = func() {}
	octop, err := filepath.Abs(c.octop)
	if err != nil {
		return pids, "", stop, err
	}
	pids[0], err = tm.start("octop", c.width, c.height, fmt.Sprintf("env TERM=xterm-256color OCTOP_TRACE=%s %s --server %s",
		filepath.Join(dir, "trace"), octop, srv.URL))
	if err != nil {
		return pids, "", stop, err
	}
	bin, err := harness.Binary(harness.V118)
	if err != nil {
		return pids, "", stop, err
	}
	// attach runs as the server's user would: same home and XDG dirs.
	d := srv.DataDir
	pids[1], err = tm.start("attach", c.width, c.height, fmt.Sprintf(
		"env TERM=xterm-256color HOME=%s XDG_CONFIG_HOME=%s XDG_DATA_HOME=%s XDG_CACHE_HOME=%s XDG_STATE_HOME=%s %s attach %s --session %s --dir %s",
		filepath.Join(d, "home"), filepath.Join(d, "config"), filepath.Join(d, "data"), filepath.Join(d, "cache"),
		filepath.Join(d, "state"), bin, srv.URL, rootID, srv.Dir))
	if err != nil {
		return pids, "", stop, err
	}
	curlOut = filepath.Join(dir, "curl.out")
	out, err := os.Create(curlOut)
	if err != nil {
		return pids, "", stop, err
	}
	cmd := exec.Command("curl", "-sN", srv.URL+"/event")
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		out.Close()
		return pids, "", stop, fmt.Errorf("start curl: %w", err)
	}
	pids[2] = cmd.Process.Pid
	stop = func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		out.Close()
	}
	return pids, curlOut, stop, nil
}

// waitReady waits until octop shows the root, attach shows its screen,
// curl has the stream, and all three have gone quiet (attach spends
// seconds starting up; that is not what is measured).
func waitReady(ctx context.Context, tm tmux, curlOut string, pids [3]int) error {
	ready := func() bool {
		b, _ := os.ReadFile(curlOut)
		return strings.Contains(tm.screen("octop"), rootTitle) &&
			len(strings.TrimSpace(tm.screen("attach"))) > 0 &&
			strings.Contains(string(b), "server.connected")
	}
	if err := poll(ctx, 100*time.Millisecond, ready); err != nil {
		return fmt.Errorf("waiting for octop, attach and curl to start: %w\noctop:\n%s\nattach:\n%s",
			err, tm.screen("octop"), tm.screen("attach"))
	}
	last := [3]float64{}
	quiet := 0
	return poll(ctx, 500*time.Millisecond, func() bool {
		busy := false
		for i, pid := range pids {
			u := measure(pid).cpu
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

// pressKeys presses j and k in turn in octop's pane until stop closes and
// returns when each was sent (Unix ns, taken just before send-keys).
func pressKeys(tm tmux, every time.Duration, stop <-chan struct{}) []int64 {
	var sent []int64
	keys := []string{"j", "k"}
	for i := 0; ; i++ {
		select {
		case <-stop:
			return sent
		case <-time.After(every):
		}
		sent = append(sent, time.Now().UnixNano())
		_ = tm.keys("octop", keys[i%2])
	}
}

// quitOctop presses q and waits for the trace's last line.
func quitOctop(ctx context.Context, tm tmux, trace string) error {
	if err := tm.keys("octop", "q"); err != nil {
		return err
	}
	err := poll(ctx, 100*time.Millisecond, func() bool {
		b, _ := os.ReadFile(trace)
		return strings.Contains(string(b), "unseen ")
	})
	if err != nil {
		return fmt.Errorf("octop did not write its trace after q: %w", err)
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
	fmt.Fprintf(w, "  %-18s %8s %10s\n", "", "CPU-s", "peak RSS")
	for _, x := range []struct {
		name string
		u    usage
	}{{"octop", r.octop}, {"opencode attach", r.attach}, {"curl -N /event", r.curl}} {
		fmt.Fprintf(w, "  %-18s %8.2f %7.1f MB\n", x.name, x.u.cpu, mb(x.u.hwmKB))
	}
	ratio := func(a, b float64) string {
		if b == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.3f", a/b)
	}
	fmt.Fprintf(w, "  %-18s %8s %10s\n", "octop/attach", ratio(r.octop.cpu, r.attach.cpu), ratio(float64(r.octop.hwmKB), float64(r.attach.hwmKB)))
	fmt.Fprintf(w, "  %-18s %8s %10s\n", "octop/curl", ratio(r.octop.cpu, r.curl.cpu), ratio(float64(r.octop.hwmKB), float64(r.curl.hwmKB)))
	fmt.Fprintf(w, "  event -> screen  %s\n", summary(r.lat.events))
	fmt.Fprintf(w, "  key -> screen    %s\n", summary(r.lat.keys))
	fmt.Fprintf(w, "  (%d events and keys changed nothing on screen; not timed)\n", r.lat.unseen)
}
