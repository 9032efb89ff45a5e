package main

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"time"

	"github.com/octop-dev/octop/internal/dev/tmux"
)

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

func keyClientOf(t tmux.Server) (*keyClient, error) {
	cmd := exec.Command("tmux", "-L", t.Socket, "-C", "new-session", "-s", "benchlive-keys", "exec cat")
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
