package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
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

// keyClient is one tmux client in control mode (tmux -C), on a session of
// its own so its size touches no pane, that sends keys as commands on its
// stdin. A key then costs tmux what a terminal's key press costs it (the
// server writes the key to the pane's pty), not the start of a tmux
// process per key, which on a busy 2-core machine took tens of milliseconds
// and was most of what "key -> screen" measured.
type keyClient struct {
	cmd *exec.Cmd
	in  io.WriteCloser
}

func (t tmux) keyClient() (*keyClient, error) {
	cmd := exec.Command("tmux", "-L", t.socket, "-C", "new-session", "-s", "benchlive-keys", "exec cat")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("tmux -C: %v", err)
	}
	k := &keyClient{cmd: cmd, in: in}
	// Ready once tmux answers a command: the first key is not timed
	// while the client is still being set up.
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		once := ready
		for sc.Scan() { // read to the end, so tmux never blocks on its replies
			if sc.Text() == "benchlive-ready" && once != nil {
				close(once)
				once = nil
			}
		}
	}()
	if _, err := io.WriteString(in, "display-message -p benchlive-ready\n"); err != nil {
		k.close()
		return nil, err
	}
	select {
	case <-ready:
		return k, nil
	case <-time.After(10 * time.Second):
		k.close()
		return nil, fmt.Errorf("tmux -C did not answer within 10s")
	}
}

// send asks tmux to press key in pane; it does not wait for the reply.
func (k *keyClient) send(pane, key string) error {
	_, err := fmt.Fprintf(k.in, "send-keys -t %s %s\n", pane, key)
	return err
}

func (k *keyClient) close() {
	_ = k.in.Close()
	done := make(chan struct{})
	go func() { _ = k.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = k.cmd.Process.Kill()
		<-done
	}
}
