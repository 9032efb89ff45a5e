// Package e2e holds the end-to-end tests: a real `opencode serve` (started
// by package harness, driven by the fake model of package fakellm) and
// octop's client, actions and UI against it. Without the pinned binaries
// the tests skip and say to run `make test`; under `make test`
// (OCTOP_E2E=1) they fail instead.
package e2e

import (
	"os"
	"testing"

	"github.com/octop-dev/octop/internal/harness"
)

// TestMain stops the servers harness.Shared started for the package.
func TestMain(m *testing.M) {
	code := m.Run()
	harness.CloseShared()
	os.Exit(code)
}
