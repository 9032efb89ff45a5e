package harness

import (
	"context"
	_ "embed"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// JaegerVersion is the Jaeger the export test runs (make builds it).
const JaegerVersion = "1.76.0"

//go:embed jaeger.yaml
var jaegerConfig []byte

// Jaeger is a running Jaeger (v2, all in one, traces in memory): a real
// tracing backend for octop export to send to and a test to read back.
type Jaeger struct {
	// OTLP is the base URL of its OTLP/HTTP receiver (--otlp takes it).
	OTLP string
	// Query is the base URL of its query API (GET /api/traces/{id}).
	Query string
	log   string
}

// JaegerBinary finds the jaeger binary: $OCTOP_JAEGER, else
// .cache/jaeger-<version>/jaeger under the module root.
func JaegerBinary() (string, error) {
	var tried []string
	if p := os.Getenv("OCTOP_JAEGER"); p != "" {
		if isExecutable(p) {
			return p, nil
		}
		tried = append(tried, p+" ($OCTOP_JAEGER)")
	}
	if root := moduleRoot(); root != "" {
		p := filepath.Join(root, ".cache", "jaeger-"+JaegerVersion, "jaeger")
		if isExecutable(p) {
			return p, nil
		}
		tried = append(tried, p)
	}
	return "", fmt.Errorf("jaeger %s is not built (looked at %s); `make jaeger` builds it", JaegerVersion, strings.Join(tried, ", "))
}

// StartJaeger starts Jaeger on free loopback ports and stops it in
// t.Cleanup. Like Start, it fails the test when Required (make test)
// when the binary is missing or Jaeger cannot start, and skips otherwise.
func StartJaeger(t T) *Jaeger {
	t.Helper()
	bin, err := JaegerBinary()
	if err != nil {
		if Required() {
			t.Fatalf("%v", err)
		}
		t.Skipf("%v", err)
	}
	dir, err := os.MkdirTemp("", "octop-jaeger-")
	if err != nil {
		t.Fatalf("%v", err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	cfg := filepath.Join(dir, "jaeger.yaml")
	if err := os.WriteFile(cfg, jaegerConfig, 0o644); err != nil {
		t.Fatalf("%v", err)
	}
	// A port found free can be taken before Jaeger binds it: try again.
	for attempt := 1; ; attempt++ {
		j, stop, err := startJaeger(bin, cfg, filepath.Join(dir, fmt.Sprintf("jaeger-%d.log", attempt)))
		if err == nil {
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("jaeger log:\n%s", tail(j.log, 40))
				}
				stop()
			})
			return j
		}
		if attempt == 3 {
			t.Fatalf("%v", err)
		}
	}
}

// startJaeger runs one attempt: it returns once Jaeger says it is
// healthy, or the error with the log's end.
func startJaeger(bin, cfg, logPath string) (*Jaeger, func(), error) {
	ports := make([]int, 4)
	for i := range ports {
		p, err := FreePort()
		if err != nil {
			return nil, nil, err
		}
		ports[i] = p
	}
	addr := func(p int) string { return fmt.Sprintf("127.0.0.1:%d", p) }
	log, err := os.Create(logPath)
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(bin, "--config=file:"+cfg)
	cmd.Env = append(os.Environ(), "JAEGER_OTLP_HTTP="+addr(ports[0]), "JAEGER_QUERY_HTTP="+addr(ports[1]),
		"JAEGER_QUERY_GRPC="+addr(ports[2]), "JAEGER_HEALTH="+addr(ports[3]))
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, nil, fmt.Errorf("start jaeger: %w", err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		log.Close()
		close(exited)
	}()
	stop := func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(testwait.Scale(10 * time.Second)):
			_ = cmd.Process.Kill()
			<-exited
		}
	}
	j := &Jaeger{OTLP: "http://" + addr(ports[0]), Query: "http://" + addr(ports[1]), log: logPath}
	if err := waitJaeger("http://"+addr(ports[3])+"/status", exited); err != nil {
		stop()
		return nil, nil, fmt.Errorf("%w\n%s", err, tail(logPath, 20))
	}
	return j, stop, nil
}

// waitJaeger polls the health check until it answers 200 (every part,
// the OTLP receiver included, is up), Jaeger exits, or a minute passes
// (scaled by OCTOP_TEST_SLOW).
func waitJaeger(url string, exited <-chan struct{}) error {
	limit := testwait.Scale(time.Minute)
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(2*time.Second))
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		cancel()
		if err == nil && resp.StatusCode == http.StatusOK {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("jaeger exited before it was healthy")
		case <-time.After(50 * time.Millisecond):
		}
	}
	return fmt.Errorf("jaeger not healthy after %v at %s", limit, url)
}

// tail is the last n lines of a file.
func tail(path string, n int) string {
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}
