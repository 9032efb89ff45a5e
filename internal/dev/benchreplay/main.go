// Command benchreplay measures octop's own cost on a live stream that is
// the same every time: it serves a recording of a live fan-out (octop
// --record, e.g. `go run ./internal/dev/benchlive -runs 1 -record DIR`)
// as a live OpenCode server, the start-up reads answered from its first
// snapshot and its events played on /event at the pace they came, to
// one or more octops side by side in 200x50 tmux panes, pressing j and k
// in each once a second as bench-live does, with the latency trace on (OCTOP_TRACE) as there.
//
//	go run ./internal/dev/benchreplay -rec FILE -octop bin/octop,/tmp/octop-main [-runs 3]
//
// For each octop it prints CPU-s (utime+stime), voluntary and
// involuntary context switches summed over its threads (wake-ups), its
// threads, and peak RSS, from the first event played to one second after
// the last. No opencode runs, so a change is measured without the noise
// of a real server's JavaScript; the load of the machine still moves the
// figures, the octops in one run share it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/octop-dev/octop/internal/dev/tmux"
	"github.com/octop-dev/octop/internal/record"
)

func main() {
	rec := flag.String("rec", "", "the recording (octop --record) of one live server")
	octops := flag.String("octop", "bin/octop", "the octop binaries (comma-separated), run side by side")
	runs := flag.Int("runs", 1, "how many runs")
	speed := flag.Float64("speed", 1, "play the events this many times faster")
	env := flag.String("env", "", "more environment for every octop, e.g. GOMAXPROCS=1")
	wrap := flag.String("wrap", "", "a command each octop runs under, e.g. \"valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.%p\" (GODEBUG=asyncpreemptoff=1 in -env)")
	stderr := flag.Bool("stderr", false, "print what each octop wrote to stderr (e.g. with -env GODEBUG=gctrace=1)")
	idle := flag.Duration("idle", 0, "first measure this long with no event played (what a quiet screen costs)")
	flag.Parse()
	sc, err := load(*rec)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreplay:", err)
		os.Exit(2)
	}
	bins := strings.Split(*octops, ",")
	fmt.Printf("%d events over %.1f s, speed %g\n", len(sc.events), sc.events[len(sc.events)-1].after.Seconds(), *speed)
	for i := 1; i <= *runs; i++ {
		if err := runOnce(sc, bins, opts{speed: *speed, env: *env, wrap: *wrap, idle: *idle, stderr: *stderr}); err != nil {
			fmt.Fprintln(os.Stderr, "benchreplay:", err)
			os.Exit(1)
		}
	}
}

func readRecording(path string) (record.Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return record.Recording{}, err
	}
	defer f.Close()
	return record.Read(f)
}

// opts are the flags of a run.
type opts struct {
	speed     float64
	env, wrap string
	idle      time.Duration
	stderr    bool
}

func runOnce(sc script, bins []string, o opts) error {
	f, err := serve(sc)
	if err != nil {
		return err
	}
	defer f.close()
	tm := tmux.Server{Socket: fmt.Sprintf("benchreplay-%d-%d", os.Getpid(), time.Now().UnixNano())}
	defer tm.Kill()
	dir, err := os.MkdirTemp("", "benchreplay-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	pids := make([]int, len(bins))
	for i, b := range bins {
		abs, err := filepath.Abs(b)
		if err != nil {
			return err
		}
		pids[i], err = tm.Start(pane(i), 200, 50, fmt.Sprintf("env TERM=xterm-256color OCTOP_TRACE=%s %s %s %s --server %s 2>%s",
			filepath.Join(dir, pane(i)), o.env, o.wrap, abs, f.url, filepath.Join(dir, pane(i)+".stderr")))
		if err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := waitReady(ctx, tm, f, len(bins)); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "playing; pids %v\n", pids)
	before := make([]usage, len(bins))
	for i, p := range pids {
		resetPeak(p)
		before[i] = measure(p)
	}
	if o.idle > 0 {
		time.Sleep(o.idle)
		report(fmt.Sprintf("idle %s", o.idle), bins, pids, before)
		for i, p := range pids {
			before[i] = measure(p)
		}
	}
	done := make(chan struct{})
	go func() { f.play(o.speed); close(done) }()
	keys := []string{"j", "k"}
	for n := 0; ; n++ {
		select {
		case <-done:
		case <-time.After(time.Second):
			for i := range bins {
				_ = tm.Keys(pane(i), keys[n%2])
			}
			continue
		}
		break
	}
	time.Sleep(time.Second)
	report("fan-out", bins, pids, before)
	if o.stderr {
		for i := range bins {
			b, _ := os.ReadFile(filepath.Join(dir, pane(i)+".stderr"))
			fmt.Printf("%s's stderr:\n%s", bins[i], b)
		}
	}
	for i := range bins {
		_ = tm.Keys(pane(i), "q")
	}
	// Let each octop end on its own, so its profiles are written.
	for i := 0; i < 50 && anyAlive(pids); i++ {
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

func anyAlive(pids []int) bool {
	for _, p := range pids {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", p)); err == nil {
			return true
		}
	}
	return false
}

// report prints each octop's use since before.
func report(what string, bins []string, pids []int, before []usage) {
	fmt.Printf("\n  %-28s %7s %9s %9s %7s %9s\n", what, "CPU-s", "vol.sw", "invol.sw", "threads", "peak RSS")
	for i, p := range pids {
		u := measure(p).minus(before[i])
		fmt.Printf("  %-28s %7.2f %9d %9d %7d %6.1f MB\n", bins[i], u.cpu, u.vol, u.invol, u.threads, float64(u.hwmKB)/1024)
	}
}

func pane(i int) string { return fmt.Sprintf("octop%d", i) }

// waitReady waits until every octop is connected and shows the root,
// then until they have been quiet for a second and a half.
func waitReady(ctx context.Context, tm tmux.Server, f *fake, n int) error {
	for {
		ok := f.connected() >= n
		for i := 0; i < n && ok; i++ {
			ok = strings.Contains(tm.Screen(pane(i)), "benchlive") || strings.Contains(tm.Screen(pane(i)), "ses_")
		}
		if ok {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("octop did not start: %s", tm.Screen(pane(0)))
		case <-time.After(100 * time.Millisecond):
		}
	}
	time.Sleep(1500 * time.Millisecond)
	return nil
}
