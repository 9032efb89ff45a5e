// Command devserver starts a real `opencode serve` wired to the fake model,
// isolated in a temp dir, and keeps it up until interrupted: a live server
// to point octop at while working on it, with no model account.
//
//	go run ./internal/dev/devserver [-version 1.18.33] [-port 4096] [-password P]
//
// Then, in another terminal: `go run ./cmd/octop --server URL`, and drive
// it with the fake model's scripts (see internal/fakellm), for example
// `go run ./cmd/octop launch --parent ID --agent general --description demo --prompt "LEAF steps=5 sleep=2"`.
// It needs the pinned binaries `make test` installs (make opencode).
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/octop-dev/octop/internal/harness"
)

func main() {
	version := flag.String("version", harness.V118, "OpenCode version: "+harness.V118+" or "+harness.V11)
	port := flag.Int("port", 0, "port to listen on (0: a free one)")
	password := flag.String("password", "", "turn on basic auth with this password")
	flag.Parse()

	s, err := harness.New(harness.Config{Version: *version, Port: *port, Password: *password})
	if err != nil {
		fmt.Fprintln(os.Stderr, "devserver:", err)
		os.Exit(1)
	}
	defer s.Close()
	fmt.Printf("opencode %s at %s\nproject dir %s\nlog %s\nctrl+c stops it\n", s.Version, s.URL, s.Dir, s.LogPath)

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
}
