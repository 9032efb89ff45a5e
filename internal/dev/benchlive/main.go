// Command benchlive measures octop beside `opencode attach` and a bare
// `curl -N /event` on the same live fan-out (make bench-live):
//
//	go run ./internal/dev/benchlive -octop bin/octop [-baseline old/octop] [-runs 2] [-children 8] [-steps 10]
//
// With -baseline, more octops run in panes of their own in the same run, so
// a change is measured before and after under the same load.
// Each run starts a real OpenCode 1.18.33 with the fake model (the end-to-end tests' harness),
// creates a root session, and starts octop and `opencode attach --session
// ROOT` in their own 200x50 tmux panes and curl on the event stream. Once
// all three are up and quiet, it resets their peak RSS, reads their CPU
// times, prompts the root with a fan-out (children × steps bash calls) and,
// while it runs, presses j and k in octop's pane. When the server is idle
// again it reads CPU times (utime+stime, children included, from
// /proc/PID/stat) and peak RSS (VmHWM) and prints them with the ratios, and
// the latencies octop's trace (OCTOP_TRACE) recorded: stream event to the
// terminal write of the first frame that shows it, and send-keys to the
// same for a key.
//
// -record DIR keeps what the measured octop received (--record), for
// the replay bench to play again without a server.
//
// It needs tmux, curl and the pinned OpenCode binaries (make opencode).
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
)

type config struct {
	octop, baseline string
	cpuprofile      string
	record          string
	runs            int
	children        int
	steps           int
	sleep           float64
	width, height   int
	keyEvery        time.Duration
	timeout         time.Duration
}

func main() {
	var c config
	flag.StringVar(&c.octop, "octop", "bin/octop", "the octop binary to measure")
	flag.StringVar(&c.baseline, "baseline", "", "more octop binaries (comma-separated) measured in the same run as base1, base2, …, e.g. the one before a change")
	flag.IntVar(&c.runs, "runs", 2, "how many runs, each on a fresh server")
	flag.IntVar(&c.children, "children", 8, "children of the fan-out")
	flag.IntVar(&c.steps, "steps", 10, "tool calls (bash) per child")
	flag.Float64Var(&c.sleep, "sleep", 0.5, "seconds each tool call sleeps")
	flag.IntVar(&c.width, "width", 200, "pane width")
	flag.IntVar(&c.height, "height", 50, "pane height")
	flag.DurationVar(&c.keyEvery, "keys", time.Second, "how often a key (j or k) is pressed in octop's pane")
	flag.StringVar(&c.cpuprofile, "cpuprofile", "", "a directory: the measured octop writes a CPU profile of each run there (OCTOP_CPUPROFILE)")
	flag.StringVar(&c.record, "record", "", "a directory: the measured octop records each run there (--record), to replay")
	flag.DurationVar(&c.timeout, "timeout", 20*time.Minute, "limit for one run's fan-out")
	flag.Parse()
	for _, b := range strings.Split(c.baseline, ",") {
		if _, err := os.Stat(b); b != "" && err != nil {
			fmt.Fprintf(os.Stderr, "benchlive: no baseline octop at %s\n", b)
			os.Exit(2)
		}
	}
	if _, err := os.Stat(c.octop); err != nil {
		fmt.Fprintf(os.Stderr, "benchlive: no octop binary at %s; build it with `go build -o %s ./cmd/octop`\n", c.octop, c.octop)
		os.Exit(2)
	}
	fmt.Printf("fan-out of %d children x %d tool calls (sleep %.1fs), panes %dx%d, %s\n",
		c.children, c.steps, c.sleep, c.width, c.height, c.octop)
	failed := false
	for i := 1; i <= c.runs; i++ {
		r, err := runOnce(c)
		if err != nil {
			fmt.Fprintf(os.Stderr, "benchlive: run %d: %v\n", i, err)
			failed = true
			continue
		}
		r.print(os.Stdout, i)
	}
	if failed {
		os.Exit(1)
	}
}
