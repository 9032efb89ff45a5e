// Command devserver starts a real `opencode serve` wired to the fake model,
// isolated in a temp dir, and keeps it up until interrupted: a live server
// to point octop at while working on it, with no model account.
//
//	go run ./internal/dev/devserver [-version 1.18.33] [-port 4096] [-password P]
//	    [-bin PATH] [-env KEY=VALUE]… [-datadir DIR] [-raw DIR] [-info FILE]
//
// Then, in another terminal: `go run ./cmd/octop --server URL`, and drive
// it with the fake model's scripts (their grammar is in the fake model's doc.go), for example
// `go run ./cmd/octop launch --parent ID --agent general --description demo --prompt "LEAF steps=5 sleep=2"`.
// It needs the pinned binaries `make test` installs (make opencode).
//
// -env sets server environment variables such as
// OPENCODE_EXPERIMENTAL_BACKGROUND_SUBAGENTS=1; -bin runs another opencode
// binary (its version must be given with -version); -datadir keeps the data
// (a later devserver with the same -datadir and -port restarts on it); -raw
// saves every request body the fake model receives as DIR/req-NNNN.json;
// -info writes {url, dir, dataDir, log, fakeLog, pid} to FILE once healthy.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/octop-dev/octop/internal/testkit/harness"
)

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

func main() {
	version := flag.String("version", harness.V118, "OpenCode version: "+harness.V118+" or "+harness.V11+" (or that of -bin)")
	port := flag.Int("port", 0, "port to listen on (0: a free one)")
	password := flag.String("password", "", "turn on basic auth with this password")
	bin := flag.String("bin", "", "opencode binary to run instead of the pinned one")
	dataDir := flag.String("datadir", "", "data dir to use and keep (default: a temp dir, removed at exit)")
	raw := flag.String("raw", "", "save every fake-model request body into this dir")
	info := flag.String("info", "", "write the server's details as JSON to this file once healthy")
	var env multi
	flag.Var(&env, "env", "KEY=VALUE for the server's environment (repeatable)")
	flag.Parse()

	cfg := harness.Config{Version: *version, Port: *port, Password: *password, Binary: *bin, DataDir: *dataDir, Env: env}
	if *raw != "" {
		if err := os.MkdirAll(*raw, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "devserver:", err)
			os.Exit(1)
		}
		cfg.FakeRaw = func(n int64, body []byte) {
			_ = os.WriteFile(filepath.Join(*raw, fmt.Sprintf("req-%04d.json", n)), body, 0o644)
		}
	}
	s, err := harness.New(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "devserver:", err)
		os.Exit(1)
	}
	defer s.Close()
	fmt.Printf("opencode %s at %s\nproject dir %s\nlog %s\nctrl+c stops it\n", s.Version, s.URL, s.Dir, s.LogPath)
	if *info != "" {
		b, _ := json.MarshalIndent(map[string]any{"url": s.URL, "dir": s.Dir, "dataDir": s.DataDir,
			"log": s.LogPath, "fakeLog": s.FakeLogPath, "version": s.Version, "pid": os.Getpid()}, "", "  ")
		_ = os.WriteFile(*info, b, 0o644)
	}

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
}
