package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
)

const sayHelp = `
Tell a session something while it runs, without stopping it: the message
joins its conversation at once, as the user's, and the model sees it at its
next step (after the tool call or the reply it is making now), then goes on
with it in mind. A session that is not running simply gets it as a new
prompt, as "octop resume" does. The message goes to the agent the session
runs as; a task keeps the tools it was launched without. Prints:

  task_id: ses_…
  agent: <agent>
  status: queued      (it was running: the model sees it at its next step)
  status: resumed     (it was idle: the message started a new run)

The words after the id are the message; "-" reads it from stdin. In the
transcript (octop log, and t on the screen) it shows as a prompt where it
sits in the conversation, with "(queued: the model sees it at its next
step)" under it until the model has seen it. Nothing is sent for an unknown
id, a malformed id or an empty message.

Examples:
  octop say ses_2b… "stop editing the tests; only fix the parser"
  octop say ses_2b… - < correction.txt`

func (a *app) newSay() *cobra.Command {
	return a.newSubcommand(subcommand{
		use:     "say ID TEXT",
		summary: "tell a running session something; the model sees it at its next step",
		help:    sayHelp,
		ids:     true,
		offer:   offerRunning,
		run:     runSay,
	})
}

func runSay(ctx context.Context, cmd *command, base client.Options, pos []string) int {
	if len(pos) == 0 {
		return cmd.usageError("missing the session id (ses_…) and the message")
	}
	id := pos[0]
	if len(pos) == 1 {
		return cmd.usageError("missing the message after the id; \"-\" reads it from stdin")
	}
	text := strings.Join(pos[1:], " ")
	if len(pos) == 2 && pos[1] == "-" {
		var err error
		if text, err = cmd.readPrompt("-"); err != nil {
			return cmd.usageError(err.Error())
		}
	}
	if strings.TrimSpace(text) == "" {
		return cmd.usageError("the message is empty; say what the session should know")
	}
	c, code, ok := cmd.clientFor(ctx, base, id)
	if !ok {
		return code
	}
	if code, ok := cmd.refuseReadOnly(c); !ok {
		return code
	}
	r, err := live.Say(ctx, c, id, text)
	if err != nil {
		return cmd.fail(err)
	}
	shown := squashSpaces(r.Agent) // the server's, on one line
	if shown == "" {
		shown = "(server default)"
	}
	status := "resumed"
	if r.Queued {
		status = "queued"
	}
	fmt.Fprintf(cmd.stdio.out, "task_id: %s\nagent: %s\nstatus: %s\n", r.Session.ID, shown, status)
	return codeOK
}
