package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// syncBuffer is a buffer written by a command while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestWatchSaysItCannotConnect: while the server cannot be reached, watch
// prints connection.lost and then connection.retrying for each attempt
// that fails again, as text and as NDJSON, instead of nothing.
func TestWatchSaysItCannotConnect(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		base := deadServer(t)
		base.Stream = client.StreamOptions{MinBackoff: 10 * time.Millisecond, MaxBackoff: 20 * time.Millisecond}
		var out, errb syncBuffer
		ctx, cancel := context.WithCancel(context.Background())
		args := []string{}
		if asJSON {
			args = append(args, "--json")
		}
		done := make(chan int)
		go func() {
			a := &app{stdio: cmdIO{nil, &out, &errb}, base: base}
			done <- a.executeContext(ctx, append([]string{"watch"}, args...))
		}()
		testwait.Eventually(t, func() bool { return strings.Count(out.String(), "connection.retrying") >= 2 }, 10*time.Second,
			"watch to say it retries")
		cancel()
		<-done
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if !strings.Contains(lines[0], "connection.lost") || !strings.Contains(lines[0], "cannot reach OpenCode") {
			t.Errorf("json=%v: first line %q, want connection.lost and why", asJSON, lines[0])
		}
		if strings.Count(out.String(), "connection.lost") != 1 {
			t.Errorf("json=%v: connection.lost printed more than once:\n%s", asJSON, out.String())
		}
		for _, l := range lines {
			if asJSON && !json.Valid([]byte(l)) {
				t.Errorf("not NDJSON: %q", l)
			}
			if strings.Contains(l, "connection.retrying") && !strings.Contains(l, "attempt ") {
				t.Errorf("a retrying line without its attempt: %q", l)
			}
		}
	}
}
