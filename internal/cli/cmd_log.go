package cli

import (
	"context"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/transcript"
	"github.com/octop-dev/octop/model"
)

const logHelp = `
Print a session's transcript, oldest first: the prompt after "» ", the
assistant's text as it is, reasoning after "~ ", each tool call as
"⟩ tool: input" (the command, file path, pattern…) followed by its output
indented by four spaces, and errors after "✗ ". A task call names the child
session it started ("⟩ task: description → ses_…"): run octop log on that
id to read the child.

With --json, print one JSON object per line instead, each with "kind"
(prompt|text|reasoning|tool|error), "sessionID", "messageID", "partID",
"agent", "text", and for a tool call "tool", "status", "input", "title",
"output", "error" and "childID" (a task's child session).

With --follow, keep printing new entries as they settle (a tool call when
it ends) until the session stops running; exit 4 if its run ended in an
error, as result --wait does, and 5 if --timeout ran out first.

Examples:
  octop log ses_2b…
  octop log --follow ses_2b…
  octop log --json ses_2b… | jq -r 'select(.kind=="tool") | .output'`

// logFlags are `octop log`'s own flags.
type logFlags struct {
	follow, json bool
	timeout      time.Duration
}

func (a *app) newLog() *cobra.Command {
	var f logFlags
	return a.newSubcommand(subcommand{
		use:     "log ID",
		summary: "print a session's transcript; --follow tails it while it runs",
		help:    logHelp,
		ids:     true,
		flags: func(fs *pflag.FlagSet) {
			fs.BoolVar(&f.follow, "follow", false, "print new entries until the session stops running")
			fs.BoolVar(&f.json, "json", false, "print one JSON object per entry (NDJSON)")
			timeoutFlag(fs, &f.timeout, "with --follow, give up after this DURATION (e.g. 10m; 0: no limit)")
		},
		run: func(ctx context.Context, cmd *command, base client.Options, pos []string) int {
			return runLog(ctx, cmd, base, pos, f)
		},
	})
}

func runLog(ctx context.Context, cmd *command, base client.Options, pos []string, f logFlags) int {
	stdio := cmd.stdio
	follow, asJSON, timeout := f.follow, f.json, f.timeout
	id, code, ok := cmd.onePositional(pos, "session id (ses_…)")
	if !ok {
		return code
	}
	c, code, ok := cmd.clientFor(ctx, base, id)
	if !ok {
		return code
	}
	write := func(entries []transcript.Entry) error {
		if asJSON {
			return transcript.WriteNDJSON(stdio.out, entries)
		}
		return transcript.WritePlain(stdio.out, entries)
	}
	if !follow {
		entries, err := live.Log(ctx, c, id)
		if err == nil {
			err = write(entries)
		}
		if err != nil {
			return cmd.fail(err)
		}
		return codeOK
	}
	fctx, cancel := waitContext(ctx, timeout)
	defer cancel()
	r, err := live.FollowLog(fctx, c, id, write)
	if err != nil {
		return cmd.fail(err)
	}
	if r.State == model.StatusError {
		return codeTaskError
	}
	return codeOK
}
