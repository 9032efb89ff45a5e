package main

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// tmux is a private tmux server (its own -L socket), so the benchmark
// touches no one's own sessions.
type tmux struct{ socket string }

func (t tmux) run(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "tmux", append([]string{"-L", t.socket}, args...)...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("tmux %s: %v: %s", args[0], err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// start runs command in a new detached session of w×h cells and returns
// the pane's process id (command is exec'd, so it is the program's own).
func (t tmux) start(name string, w, h int, command string) (int, error) {
	if _, err := t.run("new-session", "-d", "-s", name, "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), "exec "+command); err != nil {
		return 0, err
	}
	out, err := t.run("display-message", "-p", "-t", name, "#{pane_pid}")
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(out))
}

func (t tmux) screen(name string) string {
	out, _ := t.run("capture-pane", "-p", "-t", name)
	return out
}

func (t tmux) keys(name string, keys ...string) error {
	_, err := t.run(append([]string{"send-keys", "-t", name}, keys...)...)
	return err
}

func (t tmux) kill() { _, _ = t.run("kill-server") }
