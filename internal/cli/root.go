package cli

import (
	"context"
	"fmt"
	"strings"

	"charm.land/fang/v2"
	"github.com/spf13/cobra"
)

// rootHelp is what `octop --help` says above the usage and the lists of
// commands and flags.
const rootHelp = `octop watches an OpenCode server's sessions and their subagents, live.
With no command it opens the monitor; the commands run one action each,
for scripts ("octop COMMAND --help" for details).

Start a server first, e.g. 'opencode serve --port 4096' in your project.
If the server is not up yet, octop waits for it and connects on its own.

Keys: j/k or arrows move, h/l fold and unfold, enter toggles, g/G top and
bottom, tab switches pane, / filters (words, is:running, is:waiting,
is:failed, is:aborted, is:done, agent:NAME; esc clears), s cycles the sort,
f follows the busiest session, ? shows every key, q quits.
On the selected session: t shows its transcript, d the files it changed, T
the timeline of its subtree; n launches a task under it (N a new root), r
resumes it (R by a typed task_id), x aborts it (X its whole subtree), o
shows its result, y copies its task_id; i answers what waits on you.

Watchdog: a runaway session is marked in the tree (⚠ loop, ⚠ stall,
⚠ budget, ⚠ errors), the detail pane gives the evidence (the repeated
call, the quiet time, the spend, the failures) and the header counts the
marked sessions. The terminal is called (--notify) and --exec runs when a
root ends, something waits on you, a session fails or runs away; the
header shows that last notification (🔔) until the next key press.`

// rootExamples are the ways to open the screen.
const rootExamples = `# open the monitor (needs 'opencode serve' running)
octop
# replay a built-in recording; no server needed
octop --demo
# play back what --record FILE saved (space pauses, + and - speed)
octop --replay FILE
# watch several servers at once, one group each ([ ] jump)
octop --server A,B
# also watch the servers announced with opencode serve --mdns
octop --discover`

// newRoot is octop's command tree: the screen as the root's run, every
// subcommand under it, `man`, and cobra's `help` and `completion`; fang
// draws the help.
func (a *app) newRoot() *cobra.Command {
	cobra.EnableCommandSorting = false // help lists the commands in a.subcommands' order
	var g globalFlags
	root := &cobra.Command{
		Use:     "octop",
		Short:   "watch and steer OpenCode's sessions and subagents, live",
		Long:    rootHelp,
		Example: rootExamples,
		Args:    noCommand,
		RunE: func(c *cobra.Command, _ []string) error {
			g.conn = a.conn
			a.code = runScreen(&g, c.Flags(), a.stdio.out, a.stdio.err)
			return nil
		},
	}
	// cobra applies its default distance only on the path noCommand
	// replaces, so an unset one suggested prefixes alone.
	root.SuggestionsMinimumDistance = 2
	root.SetIn(a.stdio.in)
	root.SetOut(a.stdio.out)
	root.SetErr(a.stdio.err)
	root.SetFlagErrorFunc(flagError)
	a.conn.register(root.PersistentFlags())
	g.register(root.Flags())
	root.AddCommand(a.subcommands()...)
	root.AddCommand(a.newMan())
	strictBuiltins(root)
	a.completeFlags(root)
	return root
}

// execute runs the command args name and returns its exit code: the one
// the command chose, or codeUsage when cobra refused the command line (an
// unknown flag or command, a flag's bad value), said in one line.
func (a *app) execute(args []string) int { return a.executeContext(context.Background(), args) }

// executeContext is execute under ctx: a command stops when it ends.
func (a *app) executeContext(ctx context.Context, args []string) int {
	root := a.newRoot()
	root.SetArgs(dashed(root, args))
	err := fang.Execute(ctx, root,
		fang.WithoutVersion(), // --version is octop's own, and prints what it always did
		fang.WithoutManpage(), // `octop man` is octop's own: listed, and written to the command's output
		fang.WithErrorHandler(reportUsage))
	if err != nil {
		return codeUsage
	}
	return a.code
}

// noCommand refuses an argument to the root: it names no command. It
// names the commands the word is near (cobra's SuggestionsFor: a prefix,
// or at most SuggestionsMinimumDistance edits away), as cobra does
// itself only for a root without Args of its own.
func noCommand(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	near := ""
	if s := c.SuggestionsFor(args[0]); len(s) > 0 {
		near = " (did you mean " + orList(s) + "?)"
	}
	return usageErr{fmt.Sprintf("octop: unknown command %q%s; run `octop --help` for the list", args[0], near)}
}

// orList is "a", "a or b", "a, b or c".
func orList(items []string) string {
	if len(items) == 1 {
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}
