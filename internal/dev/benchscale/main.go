// Command benchscale measures octop at startup on servers holding many
// sessions (make bench-scale), beside the bare REST reads:
//
//	go run ./internal/dev/benchscale -octop bin/octop [-sessions 50000] [-days 365,10]
//	    [-runs 1] [-screen 60s] [-team 10] [-baseline old/octop]
//
// It builds the scale server (finished sessions shaped like
// OpenCode 1.18.33's, each history a prompt and a reply with three bash
// calls) and, for each spread of -days (50,000 sessions over a year, then
// over the last 10 days, 70% of them inside the screen's 7-day window),
// starts one and measures, back to back so the machine's load hits them
// alike:
//
//   - the bare REST reads `octop tree` needs, with curl: the session list,
//     the statuses, then every history, 4 curls at once, each reusing its
//     connection for a batch of URLs;
//   - `octop tree --json`: wall time, peak RSS, the requests the server
//     counted, and its time against the bare reads';
//   - the screen, in a 200x50 pane of a private tmux server: the time to
//     its first tree row (the newest root's title), from start and from
//     when the server finished sending the list; its peak RSS (VmHWM) at
//     10 s and at the end of -screen; the requests of that time and the
//     most in flight at once;
//   - with -sort, the screen again, reading as fast as it may (octop gets
//     -sortflags, "--history-rate 0"; a baseline, which may not know the
//     flag, gets none): sorted by cost, which reads every history, then
//     filtered by status (is:complete), and its peak RSS through both.
//
// Then, with -team N, a team's servers: N scaleservers of -team-sessions
// each (over the last 10 days), in one screen (--server URL,URL,…), all
// answering their lists at once, 4 s after they start: the bench folds
// every server's group before that and times each group's line, from
// its own server's list, until it counts that server's sessions. Then it
// waits until every history is read (at most -teamwait) and reports the
// peak RSS and the requests. -days none measures the team alone.
//
// Each measurement is printed as a "figure:" line, which make bench-scale
// passes to the writer of docs/perf.md. It needs curl and
// tmux.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

type config struct {
	octop, baseline string
	sessions        int
	days            []float64
	runs            int
	screen          time.Duration
	sort            bool
	sortFlags       string
	sortWait        time.Duration
	team            int
	teamSessions    int
	teamWait        time.Duration
	width, height   int
}

func main() {
	var c config
	var days string
	flag.StringVar(&c.octop, "octop", "bin/octop", "the octop binary to measure")
	flag.StringVar(&c.baseline, "baseline", "", "more octop binaries (comma-separated) measured in the same run, e.g. the one before a change")
	flag.IntVar(&c.sessions, "sessions", 50000, "sessions the fake server holds")
	flag.StringVar(&days, "days", "365,10", "the spreads measured: the days (comma-separated) the sessions are created over, or none")
	flag.IntVar(&c.runs, "runs", 1, "runs of the REST reads and tree --json, interleaved (0: none)")
	flag.DurationVar(&c.screen, "screen", time.Minute, "how long the screen is watched")
	flag.BoolVar(&c.sort, "sort", true, "then sort a screen by cost and filter it, reading every history")
	flag.StringVar(&c.sortFlags, "sortflags", "--history-rate 0", "octop's flags for the sorted screen (not a baseline's)")
	flag.DurationVar(&c.sortWait, "sortwait", 10*time.Minute, "the longest wait for the sort to read every history")
	flag.IntVar(&c.team, "team", 10, "servers of the team measured in one screen (0: none)")
	flag.IntVar(&c.teamSessions, "team-sessions", 5000, "sessions each of the team's servers holds")
	flag.DurationVar(&c.teamWait, "teamwait", 10*time.Minute, "the longest wait for the team's every history to be read")
	flag.IntVar(&c.width, "width", 200, "pane width")
	flag.IntVar(&c.height, "height", 50, "pane height")
	flag.Parse()
	for _, d := range strings.Split(days, ",") {
		if days == "none" {
			break
		}
		n, err := strconv.ParseFloat(strings.TrimSpace(d), 64)
		if err != nil || n <= 0 {
			fmt.Fprintf(os.Stderr, "benchscale: -days takes days like 365,10, not %q\n", days)
			os.Exit(2)
		}
		c.days = append(c.days, n)
	}
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

// run measures every binary against each spread's server, then the team.
func run(c config, bins []string) error {
	bin, err := buildServer()
	if err != nil {
		return err
	}
	defer os.RemoveAll(filepath.Dir(bin))
	fmt.Printf("%d cores, load %s; %s\n", numCPU(), loadAvg(), labels(bins))
	for _, days := range c.days {
		if err := spread(c, bins, bin, days); err != nil {
			return err
		}
	}
	if c.team > 0 {
		for _, b := range bins {
			if err := measureTeam(c, bin, b, label(b, bins)); err != nil {
				return err
			}
		}
	}
	return nil
}

// spread measures every binary on one server of c.sessions over days.
func spread(c config, bins []string, bin string, days float64) error {
	srv, err := startServer(bin, data{n: c.sessions, days: days, seed: 1})
	if err != nil {
		return err
	}
	defer srv.stop()
	over := fmt.Sprintf("over %g days", days)
	fmt.Printf("%d sessions %s (%d updated in the last 7 days, %s list), load %s\n",
		c.sessions, over, srv.week, mb(srv.listBytes), loadAvg())
	for i := range c.runs {
		rest, err := bareReads(srv)
		if err != nil {
			return err
		}
		fmt.Printf("figure: %s: run %d: REST reads (list, statuses, %d histories, 4 curls at once): %.2f s, %s\n",
			over, i+1, c.sessions, rest.Seconds(), srv.stats().summary())
		for _, b := range bins {
			t, err := treeJSON(srv, b)
			if err != nil {
				return err
			}
			fmt.Printf("figure: %s: run %d: %s tree --json: %.2f s (%.2fx the REST reads), peak RSS %s, %s\n",
				over, i+1, label(b, bins), t.wall.Seconds(), t.wall.Seconds()/rest.Seconds(), mb(t.peakKB<<10), t.stats.summary())
		}
	}
	for _, b := range bins {
		if err := measureScreen(c, srv, b, over+": "+label(b, bins)); err != nil {
			return err
		}
	}
	if !c.sort {
		return nil
	}
	for i, b := range bins {
		flags := ""
		if i == 0 {
			flags = c.sortFlags
		}
		if err := measureSort(c, srv, b, flags, over+": "+label(b, bins)); err != nil {
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

// labels is "octop = bin/octop, base1 = …".
func labels(bins []string) string {
	out := make([]string, len(bins))
	for i, b := range bins {
		out[i] = label(b, bins) + " = " + b
	}
	return strings.Join(out, ", ")
}

func mb(bytes int64) string { return fmt.Sprintf("%.1f MB", float64(bytes)/1e6) }

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
