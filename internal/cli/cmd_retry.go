package cli

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
)

const retryHelp = `
Start a task again: a new session under the same parent (a new root for a
root), with the original task's prompt and agent, for a task that failed,
was aborted or was cut off (interrupted), or one whose answer you want
again. For a task a parent started they come from the parent's task call;
for a root, or a task octop launched, from its first prompt. --prompt and
--agent replace them. The new session's title is the task's description
with "(retry of ses_…)", which is how the tree links it to the session it
retries, on every screen and after a restart. It is launched as "octop
launch" launches, and prints the same, with a retry_of line:

  task_id: ses_…
  agent: <agent>
  description: <description>
  retry_of: ses_…
  status: launched

--wait and --json work as launch's do. A session that is still running is
refused (abort it first, or tell it with "octop say"); nothing is created
when a check fails.

Examples:
  octop retry ses_2b…
  octop retry ses_2b… --prompt "List every caller of client.New, tests too" --wait
  octop retry ses_2b… --agent explore --json`

// retryFlags are `octop retry`'s own flags.
type retryFlags struct {
	prompt, agent string
	launchOutput
}

func (a *app) newRetry() *cobra.Command {
	var f retryFlags
	return a.newSubcommand(subcommand{
		use:     "retry ID",
		summary: "start a task again as a new session beside it (same parent, prompt and agent)",
		help:    retryHelp,
		ids:     true,
		offer:   offerFinished,
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&f.prompt, "prompt", "", "the prompt TEXT instead of the original; - reads it from stdin")
			fs.StringVar(&f.agent, "agent", "", "run as this agent NAME instead of the original")
			f.register(fs)
		},
		run: func(ctx context.Context, cmd *command, base client.Options, pos []string) int {
			return runRetry(ctx, cmd, base, pos, f)
		},
	})
}

func runRetry(ctx context.Context, cmd *command, base client.Options, pos []string, f retryFlags) int {
	id, code, ok := cmd.onePositional(pos, "task_id (a session id, ses_…)")
	if !ok {
		return code
	}
	if len(cmd.missing("prompt")) == 0 && f.prompt == "" {
		return cmd.usageError("the prompt is empty; leave --prompt out to repeat the original")
	}
	prompt, err := cmd.readPrompt(f.prompt)
	if err != nil {
		return cmd.usageError(err.Error())
	}
	c, code, ok := cmd.clientFor(ctx, base, id)
	if !ok {
		return code
	}
	if code, ok := cmd.refuseReadOnly(c); !ok {
		return code
	}
	s, req, err := live.Retry(ctx, c, id, prompt, f.agent)
	if err != nil {
		return cmd.fail(err)
	}
	return cmd.launched(ctx, c, s, req, f.launchOutput)
}
