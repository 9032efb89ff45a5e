package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// latencies are what octop's trace (OCTOP_TRACE) recorded in one run.
type latencies struct {
	events []time.Duration // event arrival → first write of a frame showing it
	keys   []time.Duration // tmux send-keys → first write of a frame showing it
	keysIn []time.Duration // octop's Update got the key → the same write
	unseen int             // events and keys after which the frame did not change
}

// readTrace parses the trace file. Key latencies start at the send-keys
// call (sent, in Unix ns, ascending) that came last before octop handled
// the key, so the time the key spent queued behind events counts.
func readTrace(path string, sent []int64) (latencies, error) {
	var l latencies
	f, err := os.Open(path)
	if err != nil {
		return l, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 2 && fs[0] == "unseen" {
			l.unseen, _ = strconv.Atoi(fs[1])
			continue
		}
		if len(fs) < 3 {
			return l, fmt.Errorf("%s: bad line %q", path, sc.Text())
		}
		at, err1 := strconv.ParseInt(fs[1], 10, 64)
		wrote, err2 := strconv.ParseInt(fs[2], 10, 64)
		if err1 != nil || err2 != nil {
			return l, fmt.Errorf("%s: bad line %q", path, sc.Text())
		}
		switch fs[0] {
		case "event":
			l.events = append(l.events, time.Duration(wrote-at))
		case "key":
			l.keysIn = append(l.keysIn, time.Duration(wrote-at))
			i := sort.Search(len(sent), func(i int) bool { return sent[i] > at }) - 1
			if i >= 0 {
				l.keys = append(l.keys, time.Duration(wrote-sent[i]))
			}
		}
	}
	return l, sc.Err()
}

// pct is the p-th percentile (0-100), nearest rank.
func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(p/100*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func summary(ds []time.Duration) string {
	if len(ds) == 0 {
		return "none measured"
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }
	return fmt.Sprintf("p50 %s  p95 %s  max %s  (n=%d)", ms(pct(ds, 50)), ms(pct(ds, 95)), ms(pct(ds, 100)), len(ds))
}
