package main

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/octop-dev/octop/internal/dev/tmux"

	"github.com/octop-dev/octop/internal/dev/procstat"
)

// panes numbers the private tmux servers, one per screen measured.
var panes atomic.Int32

// startScreen runs bin with args in a w×h pane of a private tmux server.
func startScreen(c config, bin, args string) (tmux.Server, int, error) {
	tm := tmux.Server{Socket: fmt.Sprintf("benchscale-%d-%d", os.Getpid(), panes.Add(1))}
	pid, err := tm.Start("screen", c.width, c.height, bin+" "+args)
	return tm, pid, err
}

// quit presses q and waits (at most 10 s) for octop, pid, to end, so
// what it writes as it ends (OCTOP_CPUPROFILE, OCTOP_MEMPROFILE) is
// whole before the pane is killed.
func quit(tm tmux.Server, pid int) {
	_ = tm.Keys("screen", "q")
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err != nil {
			return
		}
	}
}

// waitFor polls the pane until it shows text, at most limit; it returns
// when, or the zero time.
func waitFor(tm tmux.Server, text string, limit time.Duration) time.Time {
	for start := time.Now(); time.Since(start) < limit; {
		if strings.Contains(tm.Screen("screen"), text) {
			return time.Now()
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Time{}
}

// measureScreen runs bin's screen against s in a tmux pane and prints
// what its first c.screen took: its first row, its peak RSS, the
// requests it made.
func measureScreen(c config, s *server, bin, name string) error {
	s.reset()
	start := time.Now()
	tm, pid, err := startScreen(c, bin, "--server "+s.url)
	if err != nil {
		return err
	}
	defer tm.Kill()
	first := waitFor(tm, s.newest[:min(len(s.newest), 24)], 30*time.Second)
	if first.IsZero() {
		return fmt.Errorf("%s: no tree row within 30 s:\n%s", name, tm.Screen("screen"))
	}
	listDone := time.UnixMilli(s.stats().Routes["GET /session"].DoneMS)
	fmt.Printf("figure: %s screen: first tree row %.2f s after start, %.2f s after the list (%s) arrived\n",
		name, first.Sub(start).Seconds(), first.Sub(listDone).Seconds(), mb(s.listBytes))
	sleepUntil(start.Add(10 * time.Second))
	at10 := procstat.Of(pid, "VmHWM")
	st10 := s.stats()
	sleepUntil(start.Add(c.screen))
	end := procstat.Of(pid, "VmHWM")
	st := s.stats()
	fmt.Printf("figure: %s screen: peak RSS %s at 10 s, %s at %s; in 10 s %d requests (%d histories)\n",
		name, mb(at10<<10), mb(end<<10), c.screen, st10.Total, st10.histories())
	fmt.Printf("figure: %s screen, its first %s: %s\n", name, c.screen, st.summary())
	quit(tm, pid)
	return nil
}

// measureSort runs bin's screen (with flags) against s, sorts it by cost,
// which reads every history, waits for every one to be read (at most
// c.sortWait), then filters it by status, and prints the time and the
// peak RSS through both.
func measureSort(c config, s *server, bin, flags, name string) error {
	s.reset()
	tm, pid, err := startScreen(c, bin, strings.TrimSpace(flags+" --server "+s.url))
	if err != nil {
		return err
	}
	defer tm.Kill()
	if waitFor(tm, s.newest[:min(len(s.newest), 24)], 30*time.Second).IsZero() {
		return fmt.Errorf("%s: no tree row within 30 s:\n%s", name, tm.Screen("screen"))
	}
	start := time.Now()
	for range 4 { // newest → last activity → duration → tokens → cost
		if err := tm.Keys("screen", "s"); err != nil {
			return err
		}
	}
	for time.Since(start) < c.sortWait && s.stats().histories() < len(s.ids) {
		time.Sleep(time.Second)
	}
	sorted := time.Since(start)
	st := s.stats()
	if err := tm.Keys("screen", "/", "is:complete", "Enter"); err != nil {
		return err
	}
	filtered := waitFor(tm, "matching", 30*time.Second)
	what := "filtered by is:complete"
	if filtered.IsZero() {
		what = "the filter not shown within 30 s"
	}
	if flags != "" {
		name += " " + flags
	}
	fmt.Printf("figure: %s screen, sorted by cost: %d of %d histories read in %.0f s, at most %d in flight; then %s: peak RSS %s\n",
		name, st.histories(), len(s.ids), sorted.Seconds(), st.MaxInFlight, what, mb(procstat.Of(pid, "VmHWM")<<10))
	quit(tm, pid)
	return nil
}

func sleepUntil(t time.Time) { time.Sleep(time.Until(t)) }
