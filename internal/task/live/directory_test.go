package live

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/task"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// TestCheckDirectory: a directory inside a project, or with sessions of
// its own, is known; any other is a usage error naming the projects.
func TestCheckDirectory(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.SetProjects([]opencodetest.Project{{ID: "p", Worktree: "/src/app", Sandboxes: []string{"/src/app-wt"}}, {ID: "global", Worktree: "/"}})
	srv.AddSession(wire.Session{ID: "ses_1", Directory: "/tmp/loose"})
	for dir, ok := range map[string]bool{
		"": true, "/src/app": true, "/src/app/sub": true, "/src/app-wt": true,
		"/tmp/loose": true, "/nonexistent": false, "/src/application": false,
	} {
		c, err := client.New(client.Options{BaseURL: srv.URL(), Directory: dir})
		if err != nil {
			t.Fatal(err)
		}
		err = CheckDirectory(context.Background(), c)
		if ok != (err == nil) {
			t.Errorf("%q: %v", dir, err)
		}
		if !ok && (!errors.Is(err, task.ErrInvalid) || !strings.Contains(err.Error(), "/src/app")) {
			t.Errorf("%q: %v, want a usage error naming the projects", dir, err)
		}
	}
}
