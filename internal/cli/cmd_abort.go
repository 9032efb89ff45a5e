package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/wire"
)

const abortHelp = `
Stop a running session and print it as "aborted: ID  TITLE". With --tree,
stop every running session of its subtree, deepest first and the session
itself last, and print each one; sessions outside the subtree are left
alone. (OpenCode also stops a session's running children when the session
is aborted.)

A session with nothing running is not an error: the command says so on
stderr and exits 0, so "octop abort ID" makes sure ID is stopped.
An unknown id exits 3 and sends nothing (the server itself would answer
"true" to any id).

Examples:
  octop abort ses_2c…
  octop abort --tree ses_2a…`

func (a *app) newAbort() *cobra.Command {
	var tree bool
	return a.newSubcommand(subcommand{
		use:     "abort ID",
		summary: "stop a running session, or its whole subtree",
		help:    abortHelp,
		ids:     true,
		offer:   offerRunning,
		flags: func(fs *pflag.FlagSet) {
			fs.BoolVar(&tree, "tree", false, "abort the whole subtree: running descendants deepest first, then ID")
		},
		run: func(ctx context.Context, cmd *command, base client.Options, pos []string) int {
			return runAbort(ctx, cmd, base, pos, tree)
		},
	})
}

func runAbort(ctx context.Context, cmd *command, base client.Options, pos []string, tree bool) int {
	stdio := cmd.stdio
	id, code, ok := cmd.onePositional(pos, "session id (ses_…)")
	if !ok {
		return code
	}
	c, code, ok := cmd.clientFor(ctx, base, id)
	if !ok {
		return code
	}
	if code, ok := cmd.refuseReadOnly(c); !ok {
		return code
	}
	var aborted []wire.Session
	var err error
	if tree {
		aborted, err = live.AbortTree(ctx, c, id)
	} else {
		var s wire.Session
		if s, err = live.Abort(ctx, c, id); err == nil {
			aborted = []wire.Session{s}
		}
	}
	for _, s := range aborted {
		fmt.Fprintf(stdio.out, "aborted: %s  %s\n", s.ID, squashSpaces(s.Title))
	}
	if errors.Is(err, task.ErrNotRunning) {
		fmt.Fprintf(stdio.err, "octop abort: %s\n", err)
		return codeOK
	}
	if err != nil {
		return cmd.fail(err)
	}
	return codeOK
}
