package e2e

import (
	"testing"

	"github.com/octop-dev/octop/internal/testkit/harness"
)

// The core tests loop over harness.Targets() (OCTOP_E2E_TARGETS: by
// default 1.18.33, 1.18.33 with both experimental flags, 1.18.34 and
// 1.1.65), the background tests over harness.BackgroundTargets(); the
// rest of the suite runs on the pinned versions (harness.Versions()).

// actForTargets runs f on its own server of each core target.
func actForTargets(t *testing.T, f func(t *testing.T, s *harness.Server)) {
	for _, tg := range harness.Targets() {
		t.Run(tg.Name, func(t *testing.T) {
			t.Parallel() // each target on a server of its own
			s := harness.Start(t, tg.Config())
			f(t, s)
		})
	}
}

// forShared runs f on the shared server of each of targets
// (harness.SharedAt), the targets side by side, each on a server of its
// own. The caller stays serial (see parallel): a shared server has one
// test at a time.
func forShared(t *testing.T, targets []harness.Target, f func(t *testing.T, s *harness.Server)) {
	for _, tg := range targets {
		t.Run(tg.Name, func(t *testing.T) {
			t.Parallel() // each target on a server of its own
			f(t, harness.SharedAt(t, tg))
		})
	}
}
