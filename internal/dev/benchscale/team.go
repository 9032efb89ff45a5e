package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/octop-dev/octop/internal/dev/tmux"

	"github.com/octop-dev/octop/internal/dev/procstat"
)

// teamListAfter is when the team's servers answer their lists, after
// they start: the bench has folded every group by then, so each group's
// line is in view when its server's sessions come.
const teamListAfter = 4 * time.Second

// measureTeam runs bin's screen over c.team servers of c.teamSessions
// sessions each, spread over the last 10 days: the time from each
// server's list to its sessions on the screen, then, once every history
// is read (at most c.teamWait), the peak RSS and the requests.
//
// The servers answer their lists together, teamListAfter after they
// start. Before that the bench folds every group, so the groups' lines
// are all in view: a line says "no sessions" until its server's list is
// folded into that server's tree, and its counts from the frame its
// rows are in the tree (its first row shows then when unfolded).
func measureTeam(c config, serverBin, bin, name string) error {
	var team []*server
	defer func() {
		for _, s := range team {
			s.stop()
		}
	}()
	urls := make([]string, c.team)
	for i := range c.team {
		s, err := startServer(serverBin, data{n: c.teamSessions, days: 10, seed: i + 1, listAfter: teamListAfter})
		if err != nil {
			return err
		}
		team = append(team, s)
		urls[i] = s.url
	}
	start := time.Now()
	tm, pid, err := startScreen(c, bin, "--server "+strings.Join(urls, ","))
	if err != nil {
		return err
	}
	defer tm.Kill()
	if waitFor(tm, "servers", 10*time.Second).IsZero() {
		return fmt.Errorf("%s: no servers bar within 10 s:\n%s", name, tm.Screen("screen"))
	}
	for range team { // every group folded, the cursor back on the first
		if err := tm.Keys("screen", "h", "]"); err != nil {
			return err
		}
	}
	seen, err := sessionsShown(tm, team, urls, 60*time.Second)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var firsts []string
	worst := time.Duration(0)
	for i, s := range team {
		d := seen[i].Sub(time.UnixMilli(s.stats().Routes["GET /session"].DoneMS))
		worst = max(worst, d)
		firsts = append(firsts, fmt.Sprintf("%.2f", d.Seconds()))
	}
	fmt.Printf("figure: team of %d x %d: %s screen: each server's sessions shown %s s after its own list (at most %.2f s)\n",
		c.team, c.teamSessions, name, strings.Join(firsts, ", "), worst.Seconds())
	read := func() (n, total, inFlight int) {
		for _, s := range team {
			st := s.stats()
			n += st.histories()
			total += st.Total
			inFlight = max(inFlight, st.MaxInFlight)
		}
		return n, total, inFlight
	}
	for n, _, _ := read(); n < c.team*c.teamSessions && time.Since(start) < c.teamWait; n, _, _ = read() {
		time.Sleep(time.Second)
	}
	n, total, inFlight := read()
	fmt.Printf("figure: team of %d x %d: %s screen: %d of %d histories read in %.0f s, peak RSS %s; %d requests, at most %d in flight at one server\n",
		c.team, c.teamSessions, name, n, c.team*c.teamSessions, time.Since(start).Seconds(), mb(procstat.Of(pid, "VmHWM")<<10), total, inFlight)
	quit(tm, pid)
	return nil
}

// sessionsShown watches the group lines until each server's says more
// than "no sessions", and returns when each did.
func sessionsShown(tm tmux.Server, team []*server, urls []string, limit time.Duration) ([]time.Time, error) {
	seen := make([]time.Time, len(team))
	left := len(team)
	for start := time.Now(); left > 0; {
		if time.Since(start) > limit {
			return nil, fmt.Errorf("%d servers' sessions not shown within %s:\n%s", left, limit, tm.Screen("screen"))
		}
		now := time.Now()
		for _, l := range strings.Split(tm.Screen("screen"), "\n") {
			for i, u := range urls {
				group := fmt.Sprintf(" %d %s ", i+1, strings.TrimPrefix(u, "http://"))
				if seen[i].IsZero() && strings.Contains(l, group) && strings.Contains(l, "running") && !strings.Contains(l, "no sessions") &&
					!strings.Contains(l, "servers ") {
					seen[i] = now
					left--
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return seen, nil
}
