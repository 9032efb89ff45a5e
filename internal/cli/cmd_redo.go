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
)

const redoHelp = `
Redo what "octop undo ID" undid: bring the session's undone changes back,
and those of its descendants undone with it, for as long as the server
allows (the session's next prompt makes an undo final). It prints what
comes back, then "redone: ID" for each session.

OpenCode's unrevert writes the whole worktree back as it was at the undo,
so whatever another session changed since would go. octop names those
sessions and refuses (exit 6) unless --force says their changes may go.
A session with nothing undone is not an error: octop says so and exits 0.

Examples:
  octop redo ses_2c…
  octop redo ses_2c… --force --json`

// redoFlags are `octop redo`'s own flags.
type redoFlags struct{ force, jsonO bool }

func (a *app) newRedo() *cobra.Command {
	var f redoFlags
	return a.newSubcommand(subcommand{
		use:     "redo ID",
		summary: "bring back what octop undo undid",
		help:    redoHelp,
		ids:     true,
		flags: func(fs *pflag.FlagSet) {
			fs.BoolVar(&f.force, "force", false, "redo even where other sessions changed files since the undo: their changes go")
			fs.BoolVar(&f.jsonO, "json", false, "print what comes back as JSON")
		},
		run: func(ctx context.Context, cmd *command, base client.Options, pos []string) int {
			return runRedo(ctx, cmd, base, pos, f)
		},
	})
}

// redoJSON is `octop redo --json`.
type redoJSON struct {
	Session  string     `json:"session"`
	Sessions []string   `json:"sessions"`
	Files    []fileJSON `json:"files"`
	Others   []string   `json:"others"`
	Redone   []string   `json:"redone"`
}

func runRedo(ctx context.Context, cmd *command, base client.Options, pos []string, f redoFlags) int {
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
	plan, err := live.PlanRedo(ctx, c, id)
	if errors.Is(err, task.ErrNotReverted) {
		fmt.Fprintf(cmd.stdio.err, "octop redo: %s\n", err)
		return codeOK
	}
	if err != nil {
		return cmd.fail(err)
	}
	if !f.jsonO {
		fmt.Fprintf(cmd.stdio.out, "redo %s\n", sessionLine(plan.Session))
		printFiles(cmd.stdio.out, plan.Files, nil)
	}
	if len(plan.Others) > 0 && !f.force {
		return cmd.fail(task.NewError(task.ErrOthersWork, fmt.Sprintf(
			"this would write over changes made since the undo by %s; nothing was changed (--force redoes anyway)", sessionList(plan.Others)), nil))
	}
	consent := []string{}
	if f.force {
		consent = plan.OtherIDs()
	}
	res, err := live.Redo(ctx, c, plan, consent)
	j := redoJSON{Session: plan.Session.ID, Files: filesJSON(res.Plan.Files), Others: nonNilIDs(plan.OtherIDs()), Redone: []string{}}
	for _, s := range res.Plan.Steps {
		j.Sessions = append(j.Sessions, s.ID)
	}
	for _, s := range res.Unreverted {
		j.Redone = append(j.Redone, s.ID)
		if !f.jsonO {
			fmt.Fprintf(cmd.stdio.out, "redone: %s\n", sessionLine(s))
		}
	}
	if f.jsonO {
		cmd.printJSONCode(j)
	}
	if err != nil {
		return cmd.fail(err)
	}
	return codeOK
}
