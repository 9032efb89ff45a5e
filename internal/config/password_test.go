//go:build unix

package config

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// groupGone says the process group pgid (the shell's pid, as the command
// runs in a group of its own) has no process left.
func groupGone(pgid int) bool { return errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH) }

// TestPasswordCommandKilledWithItsGroup: a command that forks (a pipe, a
// background job) is stopped at its deadline with everything it started,
// not only its shell: before, `sleep 40 | cat` kept octop waiting 40s.
func TestPasswordCommandKilledWithItsGroup(t *testing.T) {
	for _, script := range []string{"sleep 100", "sleep 40 | cat", "(sleep 100 &); sleep 100"} {
		pidFile := filepath.Join(t.TempDir(), "pid")
		s := Server{Name: "box", PasswordCommand: "echo $$ > " + pidFile + "; " + script}
		ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(500*time.Millisecond))
		_, err := s.Password(ctx)
		cancel()
		if err == nil || !strings.Contains(err.Error(), "was still running after") || !strings.Contains(err.Error(), "with everything it started") {
			t.Errorf("%s: %v, want it stopped", script, err)
		}
		b, rerr := os.ReadFile(pidFile)
		pgid, perr := strconv.Atoi(strings.TrimSpace(string(b)))
		if rerr != nil || perr != nil {
			t.Fatalf("%s: no pid: %v %v", script, rerr, perr)
		}
		testwait.Eventually(t, func() bool { return groupGone(pgid) }, 10*time.Second, "the command's process group to be gone")
	}
}

// TestPasswordCommandOutputCapped: a command that prints more than a
// password is stopped, and says why.
func TestPasswordCommandOutputCapped(t *testing.T) {
	s := Server{Name: "box", PasswordCommand: "yes"}
	_, err := s.Password(context.Background())
	if err == nil || !strings.Contains(err.Error(), "printed more than 64 KiB") {
		t.Fatalf("Password = %v, want the cap named", err)
	}
}

// TestPasswordCommandStderrNotShown: what a failing command prints, on
// stderr or stdout, is never in the error: it may be the secret.
func TestPasswordCommandStderrNotShown(t *testing.T) {
	s := Server{Name: "box", PasswordCommand: "echo S3CRET-out; echo S3CRET-err >&2; exit 2"}
	_, err := s.Password(context.Background())
	if err == nil || strings.Contains(err.Error(), "S3CRET") || !strings.Contains(err.Error(), "exit status 2") {
		t.Fatalf("Password = %v, want the failure without the output", err)
	}
	s = Server{Name: "box", PasswordCommand: "echo warning >&2; printf 'pw\\n'"}
	if pw, err := s.Password(context.Background()); err != nil || pw != "pw" {
		t.Fatalf("Password = %q, %v", pw, err)
	}
}
