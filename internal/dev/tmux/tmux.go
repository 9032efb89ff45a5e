// Package tmux drives a private tmux server for the bench targets that
// watch octop in a real terminal (make bench-live, make bench-scale).
package tmux

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Server is a private tmux server (its own -L socket), so a benchmark
// touches no one's own sessions.
type Server struct{ Socket string }

// Run runs one tmux command on the server, with a 10 s limit, and returns
// its output.
func (t Server) Run(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "tmux", append([]string{"-L", t.Socket}, args...)...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("tmux %s: %v: %s", args[0], err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// Start runs command in a new detached session of w×h cells and returns
// the pane's process id (command is exec'd, so it is the program's own).
func (t Server) Start(name string, w, h int, command string) (int, error) {
	if _, err := t.Run("new-session", "-d", "-s", name, "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), "exec "+command); err != nil {
		return 0, err
	}
	out, err := t.Run("display-message", "-p", "-t", name, "#{pane_pid}")
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(out))
}

// Screen is what session name's pane shows now ("" if it cannot be read).
func (t Server) Screen(name string) string {
	out, _ := t.Run("capture-pane", "-p", "-t", name)
	return out
}

// Keys sends keys to session name's pane.
func (t Server) Keys(name string, keys ...string) error {
	_, err := t.Run(append([]string{"send-keys", "-t", name}, keys...)...)
	return err
}

// Kill ends the server and everything in it.
func (t Server) Kill() { _, _ = t.Run("kill-server") }
