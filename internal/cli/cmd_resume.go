package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

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

A session that is still running is refused (two prompts at once would race):
wait for it with "octop result --wait ID" or stop it with "octop abort ID".
Nothing is sent for an unknown id, a malformed id or an empty prompt.

Examples:
  octop resume ses_2b… --prompt "Now also check the tests"
  octop resume ses_2b… --prompt - --wait < followup.txt`

func runResume(ctx context.Context, stdio cmdIO, base client.Options, args []string) int {
	cmd := newCommand("resume", "resume ID --prompt TEXT [--agent NAME] [--wait]", resumeHelp, stdio)
	var prompt, agent string
	var wait bool
	var timeout time.Duration
	cmd.fs.StringVar(&prompt, "prompt", "", "the new prompt `TEXT`; - reads it from stdin")
	cmd.fs.StringVar(&agent, "agent", "", "run as this agent `NAME` (default: the session's own)")
	cmd.fs.BoolVar(&wait, "wait", false, "wait for the answer and print the result")
	cmd.fs.DurationVar(&timeout, "timeout", 0, "with --wait, give up after this `DURATION` (e.g. 10m; 0: no limit)")
	pos, code, done := cmd.parse(args)
	if done {
		return code
	}
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
	res, err := live.WaitAfter(wctx, c, r.Session.ID, live.WaitOptions{Before: r.Before})
	if err != nil {
		return cmd.fail(err)
	}
	fmt.Fprintln(stdio.out)
	return cmd.printResult(res)
}
