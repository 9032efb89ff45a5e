// Command readcost measures what reading histories costs a real OpenCode
// server: its process's CPU time while histories are read at a pace, beyond
// what it spends idle. The screen's --history-rate was chosen from it.
//
//	go run ./internal/dev/devserver -port 4197 -info /tmp/dev.json   # then fill it with sessions
//	go run ./internal/dev/readcost -url http://127.0.0.1:4197 -pid $(pgrep -P DEVSERVER_PID) \
//	    [-rates 10,25,50] [-steps 200ms,1s] [-dur 25s] [-min 3000]
//
// -pid is the opencode process's own (devserver's child). It reads the
// session list, keeps the sessions whose history is at least -min bytes,
// measures the server's CPU for 5 s idle, then for each step and rate
// reads rate×step histories at the start of each step, 3 at once (as the
// screen's reads beyond view go), for -dur, and prints the CPU beyond idle
// per read and as a share of a core. Linux only (/proc/PID/stat).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ticksMS is a clock tick of /proc/PID/stat in ms (USER_HZ is 100 on Linux).
const ticksMS = 10

func main() {
	url := flag.String("url", "http://127.0.0.1:4096", "the server")
	pid := flag.Int("pid", 0, "the server's process id (required)")
	rates := flag.String("rates", "10,25,50", "reads a second, comma-separated")
	steps := flag.String("steps", "200ms,1s", "the pace's steps, comma-separated")
	dur := flag.Duration("dur", 25*time.Second, "each run's length")
	minBytes := flag.Int("min", 3000, "only sessions whose history is at least this many bytes")
	flag.Parse()
	if *pid <= 0 {
		fmt.Fprintln(os.Stderr, "readcost: -pid is required")
		os.Exit(2)
	}
	r := reader{c: &http.Client{Timeout: time.Minute}, url: *url, pid: *pid}
	ids, median, listed, err := r.histories(*minBytes)
	if err != nil {
		fmt.Fprintln(os.Stderr, "readcost:", err)
		os.Exit(1)
	}
	fmt.Printf("%d sessions listed, %d histories of at least %d bytes (median %d bytes), load %s\n", listed, len(ids), *minBytes, median, load())
	c0, t0 := r.cpuMS(), time.Now()
	time.Sleep(5 * time.Second)
	idle := float64(r.cpuMS()-c0) / time.Since(t0).Seconds()
	fmt.Printf("idle: %.0f ms of CPU a second\n", idle)
	for _, s := range strings.Split(*steps, ",") {
		step, err := time.ParseDuration(s)
		if err != nil || step <= 0 {
			fmt.Fprintf(os.Stderr, "readcost: -steps takes durations like 200ms,1s, not %q\n", s)
			os.Exit(2)
		}
		for _, x := range strings.Split(*rates, ",") {
			rate, err := strconv.Atoi(x)
			if err != nil || rate <= 0 {
				fmt.Fprintf(os.Stderr, "readcost: -rates takes whole numbers like 10,25, not %q\n", x)
				os.Exit(2)
			}
			if err := r.paced(ids, rate, step, *dur, idle); err != nil {
				fmt.Fprintln(os.Stderr, "readcost:", err)
				os.Exit(1)
			}
		}
	}
}

type reader struct {
	c   *http.Client
	url string
	pid int
}

// get reads path whole, with a deadline.
func (r reader) get(path string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.url+path, nil)
	if err != nil {
		return nil, err
	}
	resp, err := r.c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

// histories lists the sessions whose history is at least min bytes.
func (r reader) histories(min int) (ids []string, median, listed int, err error) {
	b, err := r.get("/session?limit=1000000")
	if err != nil {
		return nil, 0, 0, err
	}
	var list []struct{ ID string }
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, 0, 0, err
	}
	var sizes []int
	for _, s := range list {
		h, err := r.get("/session/" + s.ID + "/message")
		if err != nil {
			return nil, 0, 0, err
		}
		if len(h) >= min {
			ids, sizes = append(ids, s.ID), append(sizes, len(h))
		}
	}
	if len(ids) == 0 {
		return nil, 0, 0, fmt.Errorf("none of the %d sessions has a history of %d bytes", len(list), min)
	}
	sort.Ints(sizes)
	return ids, sizes[len(sizes)/2], len(list), nil
}

// paced reads rate×step histories at the start of each step, 3 at once,
// for dur, and prints what they cost the server beyond idle.
func (r reader) paced(ids []string, rate int, step, dur time.Duration, idle float64) error {
	per := max(int(float64(rate)*step.Seconds()), 1)
	c0, t0 := r.cpuMS(), time.Now()
	tick := time.NewTicker(step)
	defer tick.Stop()
	n := 0
	var mu sync.Mutex
	var failed error
	for time.Since(t0) < dur {
		ch := make(chan string, per)
		for range per {
			ch <- ids[n%len(ids)]
			n++
		}
		close(ch)
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() {
				for id := range ch {
					if _, err := r.get("/session/" + id + "/message"); err != nil {
						mu.Lock()
						failed = err
						mu.Unlock()
					}
				}
			})
		}
		wg.Wait()
		if failed != nil {
			return failed
		}
		<-tick.C
	}
	wall := time.Since(t0).Seconds()
	cpu := float64(r.cpuMS()-c0) - idle*wall
	fmt.Printf("%d a second in steps of %s: %d reads in %.1f s, %.0f ms of the server's CPU beyond idle: %.1f ms a read, %.1f%% of a core\n",
		rate, step, n, wall, cpu, cpu/float64(n), cpu/wall/10)
	return nil
}

// cpuMS is the process's user and system CPU so far, in ms.
func (r reader) cpuMS() int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", r.pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndex(s, ")")+2:])
	user, _ := strconv.ParseInt(f[11], 10, 64)
	sys, _ := strconv.ParseInt(f[12], 10, 64)
	return (user + sys) * ticksMS
}

func load() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
