package config

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// runPasswordCommand runs the server's password_command, as Password
// says.
func (s Server) runPasswordCommand(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, passwordTimeout)
	defer cancel()
	start := time.Now()
	out := &capped{max: passwordMax, full: cancel}
	cmd := exec.CommandContext(ctx, "sh", "-c", s.PasswordCommand)
	inOwnGroup(cmd)
	cmd.Stdout = out // stdin and stderr: /dev/null
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	switch {
	case out.over():
		return "", fmt.Errorf("server %q: password_command printed more than %d KiB; it should print the password alone", s.Name, passwordMax>>10)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "", fmt.Errorf("server %q: password_command was still running after %s; it was stopped, with everything it started",
			s.Name, time.Since(start).Round(100*time.Millisecond))
	case err != nil:
		return "", fmt.Errorf("server %q: password_command failed (%v); what it printed is not shown, as it may hold the password", s.Name, err)
	}
	return strings.TrimSpace(out.String()), nil
}

// capped keeps what is written up to max bytes; past it, it calls full
// (which stops the command) and fails the write.
type capped struct {
	mu   sync.Mutex
	buf  strings.Builder
	max  int
	full func()
	past bool
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.buf.Len()+len(p) > c.max {
		c.past = true
		c.full()
		return 0, errors.New("too much output")
	}
	return c.buf.Write(p)
}

func (c *capped) over() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.past
}

func (c *capped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}
