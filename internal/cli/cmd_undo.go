package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/wire"
)

const undoHelp = `
Undo what a session did to the worktree: OpenCode's own revert, made safe
for sessions that run side by side. octop first shows every file the undo
would restore, with the lines the session's work added and removed, and
marks each file another session also changed meanwhile ("! also changed
by"), naming that session. Undoing a session also undoes its descendants
started since (background children included), each marked in the list.

By default the session is undone to its first message (all it did);
--to MESSAGE_ID undoes it from that message on.

OpenCode's snapshots cover the whole worktree, so its revert would also
restore what other sessions wrote. With such a file octop refuses (exit 6)
unless --force says their work may go too. A running session is refused
(stop it first with octop abort --tree ID; on a terminal octop offers to).
On a terminal octop asks before it undoes anything; without one, --yes
confirms. After the undo octop compares what the server reports with the
preview and says loudly when they differ (exit 1).

The undo stays undoable with "octop redo ID" until the session's next
prompt makes it final. --dry-run (which --read-only allows) shows the
preview and changes nothing; --json prints it as
{"session", "to", "files": [{"path", "additions", "deletions",
"also_changed_by": [ids], …}], …}.

Examples:
  octop undo ses_2c… --dry-run
  octop undo ses_2c… --to msg_9f… --yes
  octop undo ses_2c… --yes --force --json`

// undoFlags are `octop undo`'s own flags.
type undoFlags struct {
	to                        string
	dryRun, yes, force, jsonO bool
}

func (a *app) newUndo() *cobra.Command {
	var f undoFlags
	return a.newSubcommand(subcommand{
		use:     "undo ID",
		summary: "undo what a session (and its subtree) changed in the worktree",
		help:    undoHelp,
		ids:     true,
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&f.to, "to", "", "undo from this MESSAGE_ID on (default: the session's first message, all it did)")
			fs.BoolVar(&f.dryRun, "dry-run", false, "show what would be undone and change nothing")
			fs.BoolVar(&f.yes, "yes", false, "do not ask; needed without a terminal")
			fs.BoolVar(&f.force, "force", false, "undo even where other sessions also changed the files: their changes go too")
			fs.BoolVar(&f.jsonO, "json", false, "print the preview (and what was undone) as JSON")
		},
		run: func(ctx context.Context, cmd *command, base client.Options, pos []string) int {
			return runUndo(ctx, cmd, base, pos, f)
		},
	})
}

func runUndo(ctx context.Context, cmd *command, base client.Options, pos []string, f undoFlags) int {
	id, code, ok := cmd.onePositional(pos, "session id (ses_…)")
	if !ok {
		return code
	}
	c, code, ok := cmd.clientFor(ctx, base, id)
	if !ok {
		return code
	}
	if !f.dryRun {
		if code, ok := cmd.refuseReadOnly(c); !ok {
			return code
		}
	}
	plan, err := live.PlanUndo(ctx, c, id, f.to)
	if err != nil {
		return cmd.fail(err)
	}
	if !f.dryRun && len(plan.Busy) > 0 && canAsk(cmd.stdio.in) {
		if plan, err = cmd.offerAbort(ctx, c, plan); err != nil {
			return cmd.fail(err)
		}
	}
	if f.jsonO && f.dryRun {
		return cmd.printJSONCode(undoJSONOf(plan, nil))
	}
	if !f.jsonO {
		printUndoPlan(cmd.stdio.out, plan)
	}
	if f.dryRun {
		fmt.Fprintln(cmd.stdio.err, "octop undo: --dry-run: nothing was changed")
		return codeOK
	}
	if code, ok := cmd.confirmUndo(plan, f); !ok {
		return code
	}
	consent := []string{}
	if f.force {
		consent = plan.OtherIDs()
	}
	res, err := live.Undo(ctx, c, plan, consent)
	if f.jsonO {
		cmd.printJSONCode(undoJSONOf(res.Plan, &res))
	} else {
		printUndone(cmd.stdio.out, res)
	}
	if err != nil {
		return cmd.fail(err)
	}
	if !res.Check.OK() {
		fmt.Fprintf(cmd.stdio.err, "octop undo: WARNING: the server's account differs from the preview: %s\n", res.Check)
		return codeFail
	}
	return codeOK
}

// confirmUndo refuses an undo that would take other sessions' work
// without --force, or that nobody confirmed: --yes, or a yes on the
// terminal.
func (c *command) confirmUndo(plan task.UndoPlan, f undoFlags) (int, bool) {
	if len(plan.Busy) > 0 {
		return c.fail(task.NewError(task.ErrBusy, fmt.Sprintf("%s still running: stop it first (octop abort --tree %s); nothing was changed",
			sessionList(plan.Busy), plan.Session.ID), nil)), false
	}
	if len(plan.Others) > 0 && !f.force {
		return c.fail(task.NewError(task.ErrOthersWork, fmt.Sprintf(
			"this would also undo changes made by %s; nothing was changed (--force undoes them too)", sessionList(plan.Others)), nil)), false
	}
	if f.yes {
		return 0, true
	}
	if !canAsk(c.stdio.in) {
		return c.usageError("nothing was undone: no terminal to ask on; confirm with --yes"), false
	}
	q := fmt.Sprintf("Undo %d file(s) of %s?", len(plan.Files), sessionLine(plan.Session))
	if len(plan.Others) > 0 {
		q = fmt.Sprintf("Undo %d file(s) of %s, and with them changes made by %s?", len(plan.Files), sessionLine(plan.Session), sessionList(plan.Others))
	}
	if !c.ask(q) {
		fmt.Fprintln(c.stdio.err, "octop undo: not confirmed; nothing was changed")
		return codeRefused, false
	}
	return 0, true
}

// offerAbort asks whether to stop the running sessions of the undo, and
// if so stops the session's subtree and reads the plan again.
func (c *command) offerAbort(ctx context.Context, cl *client.Client, plan task.UndoPlan) (task.UndoPlan, error) {
	if !c.ask(fmt.Sprintf("%s still running. Abort %s and its subtree first?", sessionList(plan.Busy), plan.Session.ID)) {
		return plan, nil
	}
	if _, err := live.AbortTree(ctx, cl, plan.Session.ID); err != nil && !errors.Is(err, task.ErrNotRunning) {
		return plan, err
	}
	for _, b := range plan.Busy {
		wctx, cancel := context.WithTimeout(ctx, time.Minute)
		_, err := live.Wait(wctx, cl, b.ID)
		cancel()
		if err != nil {
			return plan, err
		}
	}
	return live.PlanUndo(ctx, cl, plan.Session.ID, plan.To)
}

// printUndoPlan writes the preview.
func printUndoPlan(w interface{ Write([]byte) (int, error) }, p task.UndoPlan) {
	fmt.Fprintf(w, "undo %s to %s\n", sessionLine(p.Session), p.To)
	for _, st := range p.Steps {
		role := "this session"
		if st.Descendant {
			role = "descendant, started since"
		}
		done := ""
		if st.Done {
			done = ", already undone"
		}
		fmt.Fprintf(w, "  reverts %s to %s (%s%s)\n", sessionLine(st.Session), st.To, role, done)
	}
	printFiles(w, p.Files, p.Unrecorded)
	if len(p.Others) > 0 {
		fmt.Fprintf(w, "! other sessions' work goes too: %s\n", sessionList(p.Others))
	}
	if len(p.Busy) > 0 {
		fmt.Fprintf(w, "! still running: %s\n", sessionList(p.Busy))
	}
}

// printUndone says what was undone and what the server says it restored.
func printUndone(w interface{ Write([]byte) (int, error) }, r task.UndoResult) {
	for _, s := range r.Reverted {
		fmt.Fprintf(w, "undone: %s (redo: octop redo %s)\n", sessionLine(s), r.Plan.Session.ID)
	}
	for _, s := range r.Restored {
		if n := r.Touched[s.Path]; n > 1 {
			fmt.Fprintf(w, "restored: %s  (%s, by %d reverts one after another)\n", s.Path, restoredWord(s), n)
			continue
		}
		fmt.Fprintf(w, "restored: %s  -%d +%d (%s)\n", s.Path, s.Deletions, s.Additions, restoredWord(s))
	}
}

// restoredWord says what a revert did to a file.
func restoredWord(s wire.DiffStat) string {
	switch s.Status {
	case "deleted":
		return "removed: the session made it"
	case "added":
		return "brought back"
	}
	return "lines restored"
}
