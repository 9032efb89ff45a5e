package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/octop-dev/octop/internal/testkit/fakellm"
)

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
		s.Fake = fakellm.New(fakellm.Options{Logf: s.fakeLog.Logf, Raw: s.cfg.FakeRaw})
		if s.fakeHTTP, err = fakellm.Listen(s.Fake); err != nil {
			return err
		}
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
		p, err := FreePort()
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
		// No formatters or language servers: none is under test, and on
		// 1.1.65 (where formatters are on by default) checking for each
		// one after a write could hold a run up for minutes on a busy
		// machine.
		"formatter": false,
		"lsp":       false,
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
	return append(env, s.cfg.Env...)
}
