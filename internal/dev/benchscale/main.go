// Command benchscale measures octop at startup on a server holding a
// year of sessions (make bench-scale), beside the bare REST reads:
//
//	go run ./internal/dev/benchscale -octop bin/octop [-sessions 50000] [-runs 2] [-screen 60s] [-baseline old/octop]
//
// It builds and starts the scale server (50,000 finished sessions
// shaped like OpenCode 1.18.33's, each history a prompt and a reply with
// three bash calls), then, in each run and back to back so the machine's
// load hits them alike:
//
//   - the bare REST reads `octop tree` needs, with curl: the session list,
//     the statuses, then every history, 4 curls at once, each reusing its
//     connection for a batch of URLs;
//   - `octop tree --json`: wall time, peak RSS, the requests the server
//     counted, and its time against the bare reads';
//
// and once, the screen, in a 200x50 tmux pane of a private tmux server:
// the time to its first tree row (the newest root's title), from start
// and from when the server finished sending the list; its peak RSS
// (VmHWM) at 10 s and at the end of -screen; the requests the server
// received in that time and the most in flight at once. With -sort it then
// sorts by cost, which reads every history, and says how long that took
// and the peak RSS after.
//
// Each measurement is printed as a "figure:" line, which make bench-scale
// passes to the writer of docs/perf.md. It needs curl and
// tmux.
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
	sessions        int
	runs            int
	screen          time.Duration
	sort            bool
	width, height   int
}

func main() {
	var c config
	flag.StringVar(&c.octop, "octop", "bin/octop", "the octop binary to measure")
	flag.StringVar(&c.baseline, "baseline", "", "more octop binaries (comma-separated) measured in the same run, e.g. the one before a change")
	flag.IntVar(&c.sessions, "sessions", 50000, "sessions the fake server holds")
	flag.IntVar(&c.runs, "runs", 2, "runs of the REST reads and tree --json, interleaved")
	flag.DurationVar(&c.screen, "screen", time.Minute, "how long the screen is watched")
	flag.BoolVar(&c.sort, "sort", true, "then sort the screen by cost, reading every history")
	flag.IntVar(&c.width, "width", 200, "pane width")
	flag.IntVar(&c.height, "height", 50, "pane height")
	flag.Parse()
	bins := []string{c.octop}
	for _, b := range strings.Split(c.baseline, ",") {
		if b != "" {
			bins = append(bins, b)
		}
	}
	for _, b := range bins {
		if _, err := os.Stat(b); err != nil {
			fmt.Fprintf(os.Stderr, "benchscale: no octop at %s (make build)\n", b)
			os.Exit(2)
		}
	}
	if err := run(c, bins); err != nil {
		fmt.Fprintln(os.Stderr, "benchscale:", err)
		os.Exit(1)
	}
}

// run measures every binary against one server.
func run(c config, bins []string) error {
	srv, err := startServer(c.sessions)
	if err != nil {
		return err
	}
	defer srv.stop()
	fmt.Printf("%d sessions (%s list), %d cores, load %s\n", c.sessions, mb(srv.listBytes), numCPU(), loadAvg())
	for i := range c.runs {
		rest, err := bareReads(srv)
		if err != nil {
			return err
		}
		fmt.Printf("figure: run %d: REST reads (list, statuses, %d histories, 4 curls at once): %.2f s, %s\n",
			i+1, c.sessions, rest.Seconds(), srv.stats().summary())
		for _, b := range bins {
			t, err := treeJSON(srv, b)
			if err != nil {
				return err
			}
			fmt.Printf("figure: run %d: %s tree --json: %.2f s (%.2fx the REST reads), peak RSS %s, %s\n",
				i+1, label(b, bins), t.wall.Seconds(), t.wall.Seconds()/rest.Seconds(), mb(t.peakKB<<10), t.stats.summary())
		}
	}
	for _, b := range bins {
		if err := measureScreen(c, srv, b, label(b, bins)); err != nil {
			return err
		}
	}
	return nil
}

// label names a binary: "octop", or "base1", "base2"… for the baselines.
func label(b string, bins []string) string {
	for i, x := range bins {
		if x == b && i > 0 {
			return fmt.Sprintf("base%d", i)
		}
	}
	return "octop"
}

func mb(bytes int64) string { return fmt.Sprintf("%.1f MB", float64(bytes)/1e6) }

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
