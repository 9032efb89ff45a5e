package cli

import (
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
)

// TestWatchRefusesAnUnknownDirectory: `octop watch --directory` naming no
// project of the server exits 2 with one line, instead of watching nothing
// forever (a CI job would hang on the typo).
func TestWatchRefusesAnUnknownDirectory(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.SetProjects([]opencodetest.Project{{ID: "p", Worktree: "/src/app"}, {ID: "global", Worktree: "/"}})
	var out, errb stringsBuilder
	code := realMain([]string{"watch", "--server", srv.URL(), "--directory", "/nonexistent"}, nil, &out, &errb)
	if code != 2 || errb.lines() != 1 || !strings.Contains(errb.String(), "/nonexistent") {
		t.Fatalf("exit %d, stderr %q; want 2 and one line naming the directory", code, errb.String())
	}
}
