package live

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/octop-dev/octop/internal/task"

	"github.com/octop-dev/octop/client"
)

// CheckDirectory fails with task.ErrInvalid when the client names a directory
// (--directory) that no project of the server knows and that has no
// sessions: a typo there would otherwise read as "no sessions". A
// directory inside a project's worktree or sandbox is known, and so is
// one the server already has sessions for (a directory outside any git
// project).
func CheckDirectory(ctx context.Context, c *client.Client) error {
	dir := c.Directory()
	if dir == "" {
		return nil
	}
	projects, err := c.WithDirectory("").Projects(ctx)
	if err != nil {
		return err
	}
	var known []string
	for _, p := range projects {
		if p.Worktree == "" || p.Worktree == "/" {
			continue // the global project holds every directory outside git
		}
		known = append(known, p.Worktree)
		for _, d := range append([]string{p.Worktree}, p.Sandboxes...) {
			if within(dir, d) {
				return nil
			}
		}
	}
	sessions, err := c.Sessions(ctx)
	if err != nil || len(sessions) > 0 {
		return err
	}
	msg := fmt.Sprintf("no project of the server at %s has the directory %s", c.BaseURL(), dir)
	if len(known) > 0 {
		msg += " (its projects: " + strings.Join(known, ", ") + ")"
	}
	return task.NewError(task.ErrInvalid, msg, nil)
}

// within reports whether dir is root or below it.
func within(dir, root string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
