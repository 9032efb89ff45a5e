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
//
// Where things are: harness.go (Config, Server, Start, New), binary.go
// (finding the pinned opencode binary), workspace.go (the temp dirs, the
// scratch repo, the config and environment), process.go (start, health,
// stop, restart), logs.go (log tails for failures), rest.go (Server.JSON),
// wait.go (WaitIdle), shared.go (one server per version, or per target,
// per binary) and targets.go (the experimental flags, and the targets the
// version-parameterised core tests loop over: Targets, BackgroundTargets).
package harness

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/octop-dev/octop/internal/testkit/fakellm"
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
	// Version is V118 ("1.18.33", the default), V11 ("1.1.65"), V11834,
	// or any release whose binary Binary finds.
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
	// Like every wait of the harness it is scaled by OCTOP_TEST_SLOW.
	StartTimeout time.Duration
	// Env adds KEY=VALUE entries to the server's environment, after the
	// harness's own (so it may set OPENCODE_EXPERIMENTAL_* flags).
	Env []string
	// Binary, when set, is the opencode executable to run instead of the
	// pinned one of Version (Version must still match what it reports).
	Binary string
	// FakeRaw, when set with no FakeURL, gets every raw request body the
	// fake model receives (see fakellm.Options.Raw).
	FakeRaw func(n int64, body []byte)
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
	fakeHTTP  *fakellm.Listener
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

// Required says whether the end-to-end tests must run, not skip, when what
// they need is missing: OCTOP_E2E is set to anything but "" (make test
// sets it to 1), so a variant spelling cannot turn failures into skips.
func Required() bool { return os.Getenv("OCTOP_E2E") != "" }

// RequireBinary fails the test when Required (make test), and skips it
// otherwise, when the opencode binary of version is not installed.
func RequireBinary(t T, version string) {
	t.Helper()
	if _, err := Binary(version); err != nil {
		if Required() {
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
	bin := cfg.Binary
	if bin == "" {
		var err error
		if bin, err = Binary(cfg.Version); err != nil {
			return nil, err
		}
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
