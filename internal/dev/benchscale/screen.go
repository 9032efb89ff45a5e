package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/octop-dev/octop/internal/dev/tmux"
)

// measureScreen runs bin's screen against s in a tmux pane and prints
// what it took: its first row, its peak RSS, the requests it made; with
// c.sort, what a sort by cost, which reads every history, then took.
func measureScreen(c config, s *server, bin, name string) error {
	tm := tmux.Server{Socket: fmt.Sprintf("benchscale-%d-%s", os.Getpid(), name)}
	defer tm.Kill()
	s.reset()
	start := time.Now()
	pid, err := tm.Start("screen", c.width, c.height, bin+" --server "+s.url)
	if err != nil {
		return err
	}
	title := s.newest[:min(len(s.newest), 24)]
	var first time.Time
	for time.Since(start) < 30*time.Second {
		if strings.Contains(tm.Screen("screen"), title) {
			first = time.Now()
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if first.IsZero() {
		return fmt.Errorf("%s: no tree row within 30 s:\n%s", name, tm.Screen("screen"))
	}
	listDone := time.UnixMilli(s.stats().Routes["GET /session"].DoneMS)
	fmt.Printf("figure: %s screen: first tree row %.2f s after start, %.2f s after the list (%s) arrived\n",
		name, first.Sub(start).Seconds(), first.Sub(listDone).Seconds(), mb(s.listBytes))
	sleepUntil(start.Add(10 * time.Second))
	at10 := statusKB(pid, "VmHWM")
	st10 := s.stats()
	sleepUntil(start.Add(c.screen))
	end := statusKB(pid, "VmHWM")
	st := s.stats()
	fmt.Printf("figure: %s screen: peak RSS %s at 10 s, %s at %s; in 10 s %d requests (%d histories)\n",
		name, mb(at10<<10), mb(end<<10), c.screen, st10.Total, st10.histories())
	fmt.Printf("figure: %s screen, its first %s: %s\n", name, c.screen, st.summary())
	if c.sort {
		if err := sortByCost(tm, s, pid, name); err != nil {
			return err
		}
	}
	_ = tm.Keys("screen", "q")
	return nil
}

// sortByCost presses s until the screen sorts by cost, then waits for
// every history to be read (at most 10 minutes).
func sortByCost(tm tmux.Server, s *server, pid int, name string) error {
	before := s.stats().histories()
	start := time.Now()
	for range 4 { // newest → last activity → duration → tokens → cost
		if err := tm.Keys("screen", "s"); err != nil {
			return err
		}
	}
	for time.Since(start) < 10*time.Minute {
		if s.stats().histories() >= len(s.ids) {
			break
		}
		time.Sleep(time.Second)
	}
	st := s.stats()
	fmt.Printf("figure: %s screen, sorted by cost: %d more histories read in %.0f s, peak RSS %s, at most %d in flight\n",
		name, st.histories()-before, time.Since(start).Seconds(), mb(statusKB(pid, "VmHWM")<<10), st.MaxInFlight)
	return nil
}

func sleepUntil(t time.Time) { time.Sleep(time.Until(t)) }

// statusKB reads one "Name:   123 kB" line of /proc/PID/status.
func statusKB(pid int, name string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, name+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
