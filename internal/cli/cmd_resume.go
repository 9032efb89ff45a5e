package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
)

const resumeHelp = `
Continue a task with its history: send a new prompt to the same session, as
passing a prior task_id to OpenCode's task tool does. The agent defaults to
the session's own. Prints:

  task_id: ses_…
  agent: <agent>
  status: resumed

With --wait it then waits for the run this prompt started (its message and
the reply after it), however slowly the server starts it: never the run
before, such as the abort that stopped it.

A session that is still running is refused (two prompts at once would race):
wait for it with "octop result --wait ID" or stop it with "octop abort ID".
Nothing is sent for an unknown id, a malformed id or an empty prompt.

Examples:
  octop resume ses_2b… --prompt "Now also check the tests"
  octop resume ses_2b… --prompt - --wait < followup.txt`

// resumeFlags are `octop resume`'s own flags.
type resumeFlags struct {
	prompt, agent string
	wait          bool
	timeout       time.Duration
}

func (a *app) newResume() *cobra.Command {
	var f resumeFlags
	return a.newSubcommand(subcommand{
		use:     "resume ID",
		summary: "send a new prompt to a task, continuing its history",
		help:    resumeHelp,
		ids:     true,
		offer:   offerFinished,
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&f.prompt, "prompt", "", "the new prompt TEXT; - reads it from stdin")
			fs.StringVar(&f.agent, "agent", "", "run as this agent NAME (default: the session's own)")
			fs.BoolVar(&f.wait, "wait", false, "wait for the answer and print the result")
			timeoutFlag(fs, &f.timeout, "with --wait, give up after this DURATION (e.g. 10m; 0: no limit)")
		},
		run: func(ctx context.Context, cmd *command, base client.Options, pos []string) int {
			return runResume(ctx, cmd, base, pos, f)
		},
	})
}

func runResume(ctx context.Context, cmd *command, base client.Options, pos []string, f resumeFlags) int {
	stdio, prompt, agent, wait, timeout := cmd.stdio, f.prompt, f.agent, f.wait, f.timeout
	id, code, ok := cmd.onePositional(pos, "task_id (a session id, ses_…)")
	if !ok {
		return code
	}
	if missing := cmd.missing("prompt"); len(missing) > 0 {
		return cmd.usageError("missing --prompt")
	}
	if strings.TrimSpace(prompt) == "" {
		return cmd.usageError("the prompt is empty; say what the session should do next")
	}
	text, err := cmd.readPrompt(prompt)
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
	r, err := live.Resume(ctx, c, id, text, agent)
	if err != nil {
		return cmd.fail(err)
	}
	shown := squashSpaces(r.Agent) // the server's, on one line
	if shown == "" {
		shown = "(server default)"
	}
	fmt.Fprintf(stdio.out, "task_id: %s\nagent: %s\nstatus: resumed\n", r.Session.ID, shown)
	if !wait {
		return codeOK
	}
	wctx, cancel := waitContext(ctx, timeout)
	defer cancel()
	res, err := live.WaitAfter(wctx, c, r.Session.ID, live.WaitOptions{Prompted: true, After: r.After})
	if err != nil {
		return cmd.fail(err)
	}
	fmt.Fprintln(stdio.out)
	return cmd.printResult(res)
}
