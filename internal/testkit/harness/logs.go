package harness

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

// LogTail returns the last n lines of the server log and of the fake's
// log, for a failing test's output.
func (s *Server) LogTail(n int) string {
	var b strings.Builder
	for _, p := range []string{s.LogPath, s.FakeLogPath} {
		if p == "" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		if len(lines) > n {
			lines = lines[len(lines)-n:]
		}
		fmt.Fprintf(&b, "=== last %d lines of %s ===\n", len(lines), p)
		for _, l := range lines {
			if len(l) > 400 {
				l = l[:400] + "…"
			}
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// lockedFile serialises the fake's log lines from concurrent requests.
type lockedFile struct {
	mu sync.Mutex
	f  *os.File
}

// Logf writes one timestamped line.
func (l *lockedFile) Logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		fmt.Fprintf(l.f, time.Now().Format("15:04:05.000 ")+format+"\n", args...)
	}
}

// Close closes the file; later lines are dropped.
func (l *lockedFile) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		l.f.Close()
		l.f = nil
	}
}
