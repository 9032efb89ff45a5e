package cli

import (
	"fmt"
	"os"
	"testing"
)

// TestMain keeps the tests away from the machine's own setup: no config
// file, no OpenCode service.json and no server or password in the
// environment, unless a test sets them itself (t.Setenv).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "octop-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, kv := range [][2]string{{"XDG_CONFIG_HOME", dir}, {"XDG_STATE_HOME", dir}, {"HOME", dir},
		{"OCTOP_CONFIG", ""}, {"OPENCODE_SERVER_URL", ""}, {"OPENCODE_SERVER_PASSWORD", ""}} {
		if err := os.Setenv(kv[0], kv[1]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}
