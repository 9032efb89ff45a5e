package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

const launchHelp = `
Start an async task: create a child session of --parent, titled
"<description> (@<agent> subagent)" like one OpenCode's task tool makes, with
the task, todowrite, todoread and question tools denied (nobody is there to
answer it), and send it --prompt without waiting for the answer. Prints:

  task_id: ses_…
  agent: <agent>
  description: <description>
  status: launched

Come back later with "octop result ID", or pass --wait to wait here for
the run the prompt starts, however slowly the server starts it, and print
the result as "octop result" does. With --json the same comes as JSON, one
object a line: {"task_id", "agent", "description", "parent", "status":
"launched"}, then with --wait {"task_id", "status": "complete"|"error",
"reason", "result", "error"}. Without --parent the task starts
as a new root session, which may also run a primary agent such as build
(titled with the description alone); a root may delegate, so only its
question tool is denied.

Nothing is created when a check fails: the parent must exist, the agent must
be one that runs as a subagent under a parent (see GET /agent: mode
subagent or all, not hidden), and description and prompt must not be empty. If the server accepts
the session but not the prompt, the empty session is deleted again and the
command fails.

Examples:
  octop launch --parent ses_2a… --agent explore --description "find callers" \
      --prompt "List every caller of client.New"
  git diff | octop launch --parent ses_2a… --agent general \
      --description "review diff" --prompt - --wait`

// launchFlags are `octop launch`'s own flags.
type launchFlags struct {
	req task.LaunchRequest
	launchOutput
}

// launchOutput are the flags that say what a launch (or a retry) prints
// and whether it waits: launch's and retry's, the same.
type launchOutput struct {
	wait, json bool
	timeout    time.Duration
}

// register adds --wait, --json and --timeout to fs.
func (o *launchOutput) register(fs *pflag.FlagSet) {
	fs.BoolVar(&o.wait, "wait", false, "wait for the task to finish and print its result")
	fs.BoolVar(&o.json, "json", false, "print JSON, one object a line")
	timeoutFlag(fs, &o.timeout, "with --wait, give up after this DURATION (e.g. 10m; 0: no limit)")
}

func (a *app) newLaunch() *cobra.Command {
	var f launchFlags
	return a.newSubcommand(subcommand{
		use:     "launch",
		summary: "start an async task under a session and print its task_id",
		help:    launchHelp,
		idFlags: []string{"parent"},
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&f.req.Parent, "parent", "", "the session ID to launch the task under (empty: a new root)")
			fs.StringVar(&f.req.Agent, "agent", "", "the subagent NAME to run the task, e.g. general or explore")
			fs.StringVar(&f.req.Description, "description", "", "a short TEXT saying what the task does; it titles the session")
			fs.StringVar(&f.req.Prompt, "prompt", "", "the task's prompt TEXT; - reads it from stdin")
			f.register(fs)
		},
		run: func(ctx context.Context, cmd *command, base client.Options, pos []string) int {
			return runLaunch(ctx, cmd, base, pos, f)
		},
	})
}

func runLaunch(ctx context.Context, cmd *command, base client.Options, pos []string, f launchFlags) int {
	req := f.req
	if len(pos) > 0 {
		return cmd.usageError("unexpected argument " + pos[0] + "; the prompt goes in --prompt")
	}
	if missing := cmd.missing("agent", "description", "prompt"); len(missing) > 0 {
		return cmd.usageError("missing " + strings.Join(missing, ", "))
	}
	prompt, err := cmd.readPrompt(req.Prompt)
	if err != nil {
		return cmd.usageError(err.Error())
	}
	req.Prompt = prompt
	var c *client.Client
	var code int
	var ok bool
	if req.Parent != "" {
		c, code, ok = cmd.clientFor(ctx, base, req.Parent) // the parent's server
	} else {
		c, code, ok = cmd.newClient(base)
	}
	if !ok {
		return code
	}
	if code, ok := cmd.refuseReadOnly(c); !ok {
		return code
	}
	s, err := live.Launch(ctx, c, req)
	if err != nil {
		return cmd.fail(err)
	}
	return cmd.launched(ctx, c, s, req, f.launchOutput)
}

// launchedJSON is what --json prints of a task just launched.
type launchedJSON struct {
	TaskID      string `json:"task_id"`
	Agent       string `json:"agent"`
	Description string `json:"description"`
	Parent      string `json:"parent,omitempty"`
	RetryOf     string `json:"retry_of,omitempty"`
	Status      string `json:"status"`
}

// resultJSON is what --json --wait prints of the task's end.
type resultJSON struct {
	TaskID string `json:"task_id"`
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	Result string `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
}

// launched prints the task session s that req launched on c (retry_of
// when it retries one), then with --wait waits for the run its prompt
// started and prints the result; it returns the exit code. Launch and
// retry print through it alike.
func (cmd *command) launched(ctx context.Context, c *client.Client, s wire.Session, req task.LaunchRequest, o launchOutput) int {
	out := cmd.stdio.out
	desc := squashSpaces(req.Description)
	if o.json {
		if err := printJSONLine(out, launchedJSON{TaskID: s.ID, Agent: req.Agent, Description: desc,
			Parent: req.Parent, RetryOf: req.RetryOf, Status: "launched"}); err != nil {
			return cmd.fail(err)
		}
	} else {
		fmt.Fprintf(out, "task_id: %s\nagent: %s\ndescription: %s\n", s.ID, req.Agent, desc)
		if req.RetryOf != "" {
			fmt.Fprintf(out, "retry_of: %s\n", req.RetryOf)
		}
		fmt.Fprintln(out, "status: launched")
	}
	if !o.wait {
		return codeOK
	}
	wctx, cancel := waitContext(ctx, o.timeout)
	defer cancel()
	r, err := live.WaitAfter(wctx, c, s.ID, live.WaitOptions{Prompted: true}) // its run, however slow to start
	if err != nil {
		return cmd.fail(err)
	}
	if !o.json {
		fmt.Fprintln(out)
		return cmd.printResult(r)
	}
	j := resultJSON{TaskID: r.TaskID, Status: r.State, Reason: r.Reason}
	switch r.State {
	case model.StatusComplete:
		j.Result = r.Text
	case model.StatusError:
		j.Error = r.ErrorLine()
	}
	if err := printJSONLine(out, j); err != nil {
		return cmd.fail(err)
	}
	if r.State == model.StatusError {
		return codeTaskError
	}
	return codeOK
}
