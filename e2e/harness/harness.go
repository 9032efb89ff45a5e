// Package harness starts a real `opencode serve` for end-to-end tests,
// isolated in a temp HOME with the XDG_* variables inside it, run from a
// scratch git repo, and wired to the scripted fake model of package
// fakellm. See Start (tests) and New (programs such as the recorder).
//
// In a test:
//
//	for _, v := range harness.Versions() {
//		t.Run(v, func(t *testing.T) {
//			s := harness.Start(t, harness.Config{Version: v}) // or harness.Shared(t, v)
//			// s.URL, s.Dir (the project), s.Stop(), s.Restart() …
//		})
//	}
//
// The prompts the fake model understands are documented in package
// fakellm. The config gives every permission ("*": "allow"), the mock
// provider as model and small_model, and a "deep" subagent that may
// delegate (Config.Agents and Config.Extra add to it).
package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/octop-dev/octop/e2e/fakellm"
	"github.com/octop-dev/octop/internal/testwait"
)

// The pinned OpenCode versions the tests run against.
const (
	V118 = "1.18.33"
	V11  = "1.1.65"
)

// Versions returns the pinned versions, newest first, for tests that loop
// `for _, v := range harness.Versions()` as subtests.
func Versions() []string { return []string{V118, V11} }

// T is the part of testing.TB that Start uses; *testing.T and *testing.B
// satisfy it.
type T interface {
	Helper()
	Logf(format string, args ...any)
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
	Cleanup(func())
	Failed() bool
}

// Config says how to start a server. The zero value starts 1.18.33 on a
// free loopback port with no password.
type Config struct {
	// Version is V118 ("1.18.33", the default) or V11 ("1.1.65").
	Version string
	// Password turns on HTTP basic auth (OPENCODE_SERVER_PASSWORD);
	// Username defaults to "opencode".
	Password, Username string
	// Port is the port to listen on; 0 picks a free loopback port.
	Port int
	// DataDir holds HOME, the XDG dirs, the project and the logs. Empty
	// means a new temp dir, removed by Close. A given DataDir is kept, so a
	// second server can start on the same data.
	DataDir string
	// Agents adds or overrides agents in the config's "agent" map. The
	// default config already has "deep": a subagent allowed to delegate
	// further (permission task: allow).
	Agents map[string]any
	// Extra is merged into the top level of opencode.json. Do not put
	// keys here that the version rejects (1.1.65 rejects unknown keys).
	Extra map[string]any
	// FakeURL is the base URL (ending in /v1) of a fake model already
	// running. Empty starts a fakellm.Server on an httptest server.
	FakeURL string
	// StartTimeout bounds the wait for /global/health; 60s when zero.
	StartTimeout time.Duration
}

// Server is a running (or stopped) opencode serve.
type Server struct {
	// URL is the server's base URL, e.g. http://127.0.0.1:41234.
	URL string
	// Dir is the project directory: the server's working directory, a
	// scratch git repo.
	Dir string
	// Version is the OpenCode version started.
	Version string
	// Port is the port the server listens on; Restart keeps it.
	Port int
	// Username and Password are the basic-auth credentials, if any.
	Username, Password string
	// DataDir holds home/, the XDG dirs, project/ and the log files.
	DataDir string
	// LogPath is the server's stdout and stderr (with --print-logs).
	LogPath string
	// FakeLogPath is the fake model's per-request log, when the harness
	// started the fake.
	FakeLogPath string
	// Fake is the fake model the harness started, or nil.
	Fake *fakellm.Server

	bin       string
	cfg       Config
	ownsData  bool
	fakeHTTP  *httptest.Server
	fakeLog   *lockedFile
	mu        sync.Mutex
	cmd       *exec.Cmd
	exited    chan struct{}
	closeOnce sync.Once
}

// Start starts a server for a test and stops it (and removes its temp
// dirs) in t.Cleanup, printing the tail of its logs if the test failed.
// When the binary is missing, Start fails the test under OCTOP_E2E=1 (make
// test) and skips it otherwise.
func Start(t T, cfg Config) *Server {
	t.Helper()
	RequireBinary(t, cfg.Version)
	s, err := New(cfg)
	if err != nil {
		t.Fatalf("%v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("%s", s.LogTail(60))
		}
		s.Close()
	})
	return s
}

// RequireBinary fails the test under OCTOP_E2E=1 (make test), and skips it
// otherwise, when the opencode binary of version is not installed.
func RequireBinary(t T, version string) {
	t.Helper()
	if _, err := Binary(version); err != nil {
		if os.Getenv("OCTOP_E2E") == "1" {
			t.Fatalf("%v", err)
		}
		t.Skipf("%v; run `make test` to install it", err)
	}
}

// New starts a server outside of a test. The caller must Close it.
func New(cfg Config) (*Server, error) {
	if cfg.Version == "" {
		cfg.Version = V118
	}
	if cfg.Password != "" && cfg.Username == "" {
		cfg.Username = "opencode"
	}
	if cfg.StartTimeout == 0 {
		cfg.StartTimeout = 60 * time.Second
	}
	bin, err := Binary(cfg.Version)
	if err != nil {
		return nil, err
	}
	s := &Server{Version: cfg.Version, Username: cfg.Username, Password: cfg.Password, bin: bin, cfg: cfg}
	if err := s.prepare(); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.start(); err != nil {
		err = fmt.Errorf("%w\n%s", err, s.LogTail(40))
		s.Close()
		return nil, err
	}
	return s, nil
}

// Binary finds the opencode binary of a version: $OCTOP_OPENCODE_1_18 or
// $OCTOP_OPENCODE_1_1, else .cache/opencode-<version>/… under the module
// root. The error says where it looked.
func Binary(version string) (string, error) {
	if version == "" {
		version = V118
	}
	env := "OCTOP_OPENCODE_1_18"
	if strings.HasPrefix(version, "1.1.") {
		env = "OCTOP_OPENCODE_1_1"
	}
	var tried []string
	if p := os.Getenv(env); p != "" {
		if isExecutable(p) {
			return p, nil
		}
		tried = append(tried, p+" ($"+env+")")
	}
	if root := moduleRoot(); root != "" {
		p := filepath.Join(root, ".cache", "opencode-"+version, "node_modules", "opencode-"+platform(), "bin", "opencode")
		if isExecutable(p) {
			return p, nil
		}
		tried = append(tried, p)
	}
	return "", fmt.Errorf("opencode %s is not installed (looked at %s)", version, strings.Join(tried, ", "))
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// platform is the suffix of the npm package that holds the binary, e.g.
// linux-x64.
func platform() string {
	arch := runtime.GOARCH
	if arch == "amd64" {
		arch = "x64"
	}
	return runtime.GOOS + "-" + arch
}

// moduleRoot is the directory of octop's go.mod: searched upwards from the
// working directory, then from this source file.
func moduleRoot() string {
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		starts = append(starts, filepath.Dir(file))
	}
	for _, dir := range starts {
		for d := dir; ; d = filepath.Dir(d) {
			b, err := os.ReadFile(filepath.Join(d, "go.mod"))
			if err == nil && bytes.Contains(b, []byte("module github.com/octop-dev/octop\n")) {
				return d
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return ""
}

// prepare makes the data dirs, the scratch repo, the fake and the config.
func (s *Server) prepare() error {
	s.DataDir = s.cfg.DataDir
	if s.DataDir == "" {
		d, err := os.MkdirTemp("", "octop-e2e-")
		if err != nil {
			return err
		}
		s.DataDir, s.ownsData = d, true
	}
	for _, d := range []string{"home", "config/opencode", "data", "cache", "state", "project"} {
		if err := os.MkdirAll(filepath.Join(s.DataDir, d), 0o755); err != nil {
			return err
		}
	}
	s.Dir = filepath.Join(s.DataDir, "project")
	s.LogPath = filepath.Join(s.DataDir, "server.log")
	if _, err := os.Stat(filepath.Join(s.Dir, ".git")); err != nil {
		if err := s.git("init", "-q"); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(s.Dir, "README.md"), []byte("octop e2e scratch project\n"), 0o644); err != nil {
			return err
		}
		if err := s.git("add", "README.md"); err != nil {
			return err
		}
		if err := s.git("commit", "-q", "-m", "scratch project"); err != nil {
			return err
		}
	}
	fakeURL := s.cfg.FakeURL
	if fakeURL == "" {
		s.FakeLogPath = filepath.Join(s.DataDir, "fakellm.log")
		f, err := os.OpenFile(s.FakeLogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		s.fakeLog = &lockedFile{f: f}
		s.Fake = fakellm.New(fakellm.Options{Logf: s.fakeLog.Logf})
		s.fakeHTTP = httptest.NewServer(s.Fake)
		fakeURL = s.fakeHTTP.URL + "/v1"
	}
	b, err := json.MarshalIndent(Config2JSON(s.cfg.Version, fakeURL, s.cfg.Agents, s.cfg.Extra), "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(s.DataDir, "config", "opencode", "opencode.json"), b, 0o644); err != nil {
		return err
	}
	if s.cfg.Port == 0 {
		p, err := freePort()
		if err != nil {
			return err
		}
		s.cfg.Port = p
	}
	s.Port = s.cfg.Port
	s.URL = fmt.Sprintf("http://127.0.0.1:%d", s.Port)
	return nil
}

// Config2JSON is the opencode.json the harness writes for a version: the
// mock provider pointing at fakeURL, every permission allowed, the "deep"
// agent that may delegate, then agents and extra merged over it. 1.18
// also gets subagent_depth 3, which nested delegation needs there and
// 1.1.65 rejects.
func Config2JSON(version, fakeURL string, agents, extra map[string]any) map[string]any {
	agentMap := map[string]any{
		"deep": map[string]any{
			"mode":        "subagent",
			"description": "A subagent that may delegate further (octop e2e).",
			"permission":  map[string]any{"task": "allow"},
		},
	}
	for k, v := range agents {
		agentMap[k] = v
	}
	cfg := map[string]any{
		"provider": map[string]any{"mock": map[string]any{
			"npm":     "@ai-sdk/openai-compatible",
			"options": map[string]any{"baseURL": fakeURL, "apiKey": "x"},
			"models":  map[string]any{"mock-1": map[string]any{"name": "Mock", "tool_call": true}},
		}},
		"model":       "mock/mock-1",
		"small_model": "mock/mock-1",
		"permission":  map[string]any{"*": "allow"},
		"share":       "disabled",
		"autoupdate":  false,
		"agent":       agentMap,
	}
	if !strings.HasPrefix(version, "1.1.") {
		cfg["subagent_depth"] = 3
	}
	for k, v := range extra {
		cfg[k] = v
	}
	return cfg
}

func (s *Server) git(args ...string) error {
	cmd := exec.Command("git", append([]string{"-c", "user.name=octop", "-c", "user.email=octop@example.invalid", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = s.Dir
	cmd.Env = append(s.env(), "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s in %s: %v: %s", strings.Join(args, " "), s.Dir, err, out)
	}
	return nil
}

// env is the server's environment: this process's, minus anything that
// would leak the user's OpenCode setup, plus the isolated dirs.
func (s *Server) env() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "OPENCODE_") || strings.HasPrefix(k, "XDG_") || k == "HOME" {
			continue
		}
		env = append(env, kv)
	}
	d := s.DataDir
	env = append(env,
		"HOME="+filepath.Join(d, "home"),
		"XDG_CONFIG_HOME="+filepath.Join(d, "config"),
		"XDG_DATA_HOME="+filepath.Join(d, "data"),
		"XDG_CACHE_HOME="+filepath.Join(d, "cache"),
		"XDG_STATE_HOME="+filepath.Join(d, "state"),
	)
	if s.Password != "" {
		env = append(env, "OPENCODE_SERVER_PASSWORD="+s.Password, "OPENCODE_SERVER_USERNAME="+s.Username)
	}
	return env
}

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
	deadline := time.Now().Add(s.cfg.StartTimeout)
	var last error
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("opencode %s exited before it was healthy (log: %s)", s.Version, s.LogPath)
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
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
	return fmt.Errorf("opencode %s at %s not healthy after %v: %v (log: %s)", s.Version, s.URL, s.cfg.StartTimeout, last, s.LogPath)
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
	case <-time.After(30 * time.Second):
		return fmt.Errorf("opencode pid %d did not exit within 30s of SIGKILL", cmd.Process.Pid)
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

// JSON sends a request to the server with the harness's credentials and
// decodes a JSON answer into out (if out is not nil). in, if not nil, is
// sent as a JSON body. A status >= 300 is an error with the body in it.
func (s *Server) JSON(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.URL+path, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if s.Password != "" {
		req.SetBasicAuth(s.Username, s.Password)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		return &StatusError{Method: method, Path: path, Code: resp.StatusCode, Body: string(data)}
	}
	if out == nil || len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: decode %.200q: %w", method, path, data, err)
	}
	return nil
}

// StatusError is a non-2xx answer to Server.JSON.
type StatusError struct {
	Method, Path string
	Code         int
	Body         string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s %s: HTTP %d: %.300s", e.Method, e.Path, e.Code, e.Body)
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

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func portFree(port int) error {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return err
	}
	return l.Close()
}
