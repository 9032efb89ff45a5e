package main

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// readers is how many curls read histories at once: octop's own
// task.HistoryParallel.
const readers = 4

// bareReads is what octop tree needs, read by curl and thrown away: the
// list, the statuses, then every history, readers curls at once, each
// reusing its connection for a batch of URLs.
func bareReads(s *server) (time.Duration, error) {
	batch := min(max(len(s.ids)/(readers*4), 1), 1000)
	script := fmt.Sprintf("curl -sf %q >/dev/null && curl -sf %q >/dev/null && xargs -P%d -n%d curl -sf <%q >/dev/null",
		s.url+"/session", s.url+"/session/status", readers, batch, filepath.Join(s.dir, "message-urls"))
	s.reset()
	start := time.Now()
	if out, err := exec.Command("sh", "-c", script).CombinedOutput(); err != nil {
		return 0, fmt.Errorf("the REST reads: %v: %s", err, out)
	}
	return time.Since(start), nil
}

// treeRun is one octop tree --json.
type treeRun struct {
	wall   time.Duration
	peakKB int64
	stats  stats
}

// treeJSON runs bin tree --json against s, its output thrown away.
func treeJSON(s *server, bin string) (treeRun, error) {
	s.reset()
	cmd := exec.Command(bin, "--server", s.url, "tree", "--json")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return treeRun{}, fmt.Errorf("%s tree --json: %v: %s", bin, err, stderr.String())
	}
	r := treeRun{wall: time.Since(start), stats: s.stats()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peakKB = ru.Maxrss // kilobytes on Linux
	}
	return r, nil
}
