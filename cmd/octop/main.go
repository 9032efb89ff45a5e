// Command octop is a terminal monitor and control room for OpenCode's
// subagents.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "octop: the demo is not built yet")
	os.Exit(1)
}
