// Package e2e holds the end-to-end tests: a real `opencode serve` (started
// by package harness, driven by the fake model of package fakellm) and
// octop's client, actions and UI against it. Without the pinned binaries
// the tests skip and say to run `make test`; under `make test`
// (OCTOP_E2E=1) they fail instead.
package e2e

import (
	"os"
	"testing"

	"github.com/octop-dev/octop/internal/testkit/harness"
)

// TestMain stops the servers harness.Shared started for the package.
func TestMain(m *testing.M) {
	code := m.Run()
	harness.CloseShared()
	os.Exit(code)
}

// parallel runs a top-level test that starts its own servers alongside the
// others like it (go test -parallel bounds how many run at once), which
// shortens the suite: most of their time is spent waiting on a server.
//
// The tests on harness.Shared stay serial: they wait for their server to
// go quiet, or compare it whole, so another test's sessions there would
// change what they see. go test runs every serial top-level test before
// the parallel ones, so once a parallel test starts the shared servers are
// done with, and are stopped to free the machine for the parallel ones (a
// later Shared would start them again). A test's version subtests, each
// on a server of its own, call t.Parallel themselves.
func parallel(t *testing.T) {
	t.Parallel()
	harness.CloseShared()
}
