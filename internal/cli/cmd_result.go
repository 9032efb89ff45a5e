package cli

import (
	"context"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
)

const resultHelp = `
Print a task's outcome in async-task terms:

  status: running|complete|error
  task_id: ses_…

then, once complete, the last assistant text inside <task_result> tags; for
an error, its name and message (e.g. "error: MessageAbortedError: …"); while
running, the run's tool calls so far. With --wait, wait until it stops
running first (a session with no messages yet, e.g. one launched a moment
ago, counts as not started: --wait waits for its first answer). Exits 4
when the task ended in an error.

Examples:
  octop result ses_2b…
  octop result --wait --timeout 10m ses_2b…`

func (a *app) newResult() *cobra.Command {
	var wait bool
	var timeout time.Duration
	return a.newSubcommand(subcommand{
		use:     "result ID",
		summary: "print a task's status and result",
		help:    resultHelp,
		ids:     true,
		offer:   offerFinished,
		flags: func(fs *pflag.FlagSet) {
			fs.BoolVar(&wait, "wait", false, "wait until the task stops running")
			timeoutFlag(fs, &timeout, "with --wait, give up after this DURATION (e.g. 10m; 0: no limit)")
		},
		run: func(ctx context.Context, cmd *command, base client.Options, pos []string) int {
			return runResult(ctx, cmd, base, pos, wait, timeout)
		},
	})
}

func runResult(ctx context.Context, cmd *command, base client.Options, pos []string, wait bool, timeout time.Duration) int {
	id, code, ok := cmd.onePositional(pos, "task_id (a session id, ses_…)")
	if !ok {
		return code
	}
	c, code, ok := cmd.clientFor(ctx, base, id)
	if !ok {
		return code
	}
	var r task.Result
	var err error
	if wait {
		wctx, cancel := waitContext(ctx, timeout)
		defer cancel()
		r, err = live.Wait(wctx, c, id)
	} else {
		r, err = live.Result(ctx, c, id)
	}
	if err != nil {
		return cmd.fail(err)
	}
	return cmd.printResult(r)
}
