// Command octop is a terminal monitor and control room for OpenCode's
// subagents. It is wiring only: everything it does is package cli's.
package main

import (
	"os"

	"github.com/octop-dev/octop/internal/cli"
)

// version and commit are stamped into release builds by `make dist`:
// -ldflags "-X main.version=v1.2.3 -X main.commit=abc1234".
var (
	version = ""
	commit  = ""
)

func main() {
	os.Exit(cli.Main(cli.Build{Version: version, Commit: commit}, os.Args[1:]))
}
