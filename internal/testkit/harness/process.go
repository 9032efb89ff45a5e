package harness

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// start launches the process and waits for health.
func (s *Server) start() error {
	log, err := os.OpenFile(s.LogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "--- octop harness: starting opencode %s on %s at %s\n", s.Version, s.URL, time.Now().Format(time.RFC3339))
	cmd := exec.Command(s.bin, "serve", "--port", fmt.Sprint(s.Port), "--hostname", "127.0.0.1", "--print-logs")
	cmd.Dir = s.Dir
	cmd.Env = s.env()
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		log.Close()
		return fmt.Errorf("start opencode %s: %w", s.Version, err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		log.Close()
		close(exited)
	}()
	s.mu.Lock()
	s.cmd, s.exited = cmd, exited
	s.mu.Unlock()
	return s.waitHealthy(exited)
}

// waitHealthy polls /global/health. The port can accept a connection
// before the server answers, so every probe has its own short timeout.
func (s *Server) waitHealthy(exited <-chan struct{}) error {
	limit := testwait.Scale(s.cfg.StartTimeout)
	deadline := time.Now().Add(limit)
	var last error
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("opencode %s exited before it was healthy (log: %s)", s.Version, s.LogPath)
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(2*time.Second))
		var h struct {
			Healthy bool   `json:"healthy"`
			Version string `json:"version"`
		}
		last = s.JSON(ctx, http.MethodGet, "/global/health", nil, &h)
		cancel()
		if last == nil && h.Healthy {
			if h.Version != s.Version {
				return fmt.Errorf("server at %s reports version %q, want %s", s.URL, h.Version, s.Version)
			}
			return nil
		}
		select {
		case <-exited:
		case <-time.After(150 * time.Millisecond):
		}
	}
	return fmt.Errorf("opencode %s at %s not healthy after %v: %v (log: %s)", s.Version, s.URL, limit, last, s.LogPath)
}

// Stop kills the server (and its tools' processes) and waits for it to
// exit. The data dir stays; Restart starts it again.
func (s *Server) Stop() error {
	s.mu.Lock()
	cmd, exited := s.cmd, s.exited
	s.cmd = nil
	s.mu.Unlock()
	if cmd == nil || cmd.Process == nil {
		return nil
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-exited:
		return nil
	case <-time.After(testwait.Scale(30 * time.Second)):
		return fmt.Errorf("opencode pid %d did not exit within %v of SIGKILL", cmd.Process.Pid, testwait.Scale(30*time.Second))
	}
}

// Restart stops the server and starts it again on the same data dir and
// port, waiting for health.
func (s *Server) Restart() error {
	if err := s.Stop(); err != nil {
		return err
	}
	// The port may linger briefly after the kill; retry until it binds.
	if err := testwait.Poll(func() error { return portFree(s.Port) }, s.cfg.StartTimeout); err != nil {
		return fmt.Errorf("port %d still busy after stopping the server: %w", s.Port, err)
	}
	return s.start()
}

// Running reports whether the server process is alive.
func (s *Server) Running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return false
	}
	select {
	case <-s.exited:
		return false
	default:
		return true
	}
}

// Close stops the server and the fake, and removes the data dir if the
// harness made it. It is safe to call more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		_ = s.Stop()
		if s.fakeHTTP != nil {
			s.fakeHTTP.CloseClientConnections()
			s.fakeHTTP.Close()
		}
		if s.fakeLog != nil {
			s.fakeLog.Close()
		}
		if s.ownsData && s.DataDir != "" {
			_ = os.RemoveAll(s.DataDir)
		}
	})
}

// handedOut is every port FreePort has given a server of this process:
// servers started in parallel tests must not be given the same one while
// the first has not bound it yet, nor one a stopped server will restart on.
var handedOut struct {
	sync.Mutex
	ports map[int]bool
}

// FreePort is a loopback port no one listens on, and that no other server
// of this process was given: for a test that starts a server later on a
// port it must know first.
func FreePort() (int, error) {
	handedOut.Lock()
	defer handedOut.Unlock()
	if handedOut.ports == nil {
		handedOut.ports = map[int]bool{}
	}
	for range 100 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, fmt.Errorf("find a free port: %w", err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if !handedOut.ports[port] {
			handedOut.ports[port] = true
			return port, nil
		}
	}
	return 0, fmt.Errorf("find a free port: every one offered was given to another server")
}

func portFree(port int) error {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return err
	}
	return l.Close()
}
