package cli

import (
	"context"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/config"
)

// app is one run of octop: where it reads and writes, the environment's
// connection settings, the connection flags every command shares, and the
// exit code the command that ran chose.
type app struct {
	stdio cmdIO
	// base is the connection before the flags: client.OptionsFromEnv,
	// or a test's own.
	base client.Options
	// conn is bound to the root's persistent flags (--server, …).
	conn connFlags
	code int
}

// subcommand describes one `octop NAME …` for scripts. Its cobra command is
// made by app.newSubcommand; the list is app.subcommands.
type subcommand struct {
	// use is the usage line after "octop": the name, then its
	// positional arguments ("abort ID"); the flags are listed apart.
	use string
	// summary is the one line the top-level help lists.
	summary string
	// help is what the command does, then a line "Examples:" and one
	// example a line; the exit codes are added after it.
	help string
	// flags adds the command's own flags; the connection flags are the
	// root's, every command's.
	flags func(fs *pflag.FlagSet)
	// ids says the positional argument is a session id: the shell
	// completes it with the server's sessions, first those offer says
	// the command applies to.
	ids   bool
	offer offer
	// idFlags are the command's flags whose value is a session id,
	// completed as ids is.
	idFlags []string
	// run does the work once the flags are parsed and the config file's
	// settings applied, and returns the exit code. pos are the
	// positional arguments; base the connection before the flags.
	run func(ctx context.Context, cmd *command, base client.Options, pos []string) int
}

// subcommands are the script entry points, in the order help lists them.
func (a *app) subcommands() []*cobra.Command {
	return []*cobra.Command{
		a.newLaunch(), a.newResume(), a.newSay(), a.newRetry(), a.newAbort(), a.newResult(),
		a.newUndo(), a.newRedo(),
		a.newTree(), a.newWatch(), a.newLog(), a.newExport(), a.newUsage(), a.newConfig(),
	}
}

// exitCodes says what each exit status means: the end of every
// subcommand's help and the man page's "Exit status" read it.
const exitCodes = `0 done, 1 server or request error, 2 bad usage (or refused: read-only), 3 no such session,
4 the task ended in an error (result, --wait, log --follow, watch --until-done),
5 --wait --timeout ran out while the task still ran, 6 nothing undone or redone: another
session's work was at stake and --force was not given, or the undo was not confirmed.`

// exitCodesHelp ends every subcommand's help.
const exitCodesHelp = "\n\nExit codes: " + exitCodes

// newSubcommand makes s's cobra command. Flags and positional arguments
// may mix (`octop resume ID --prompt …`); a lone "--" ends the flags.
func (a *app) newSubcommand(s subcommand) *cobra.Command {
	long, example := splitExamples(s.help)
	c := &cobra.Command{
		Use:                   s.use,
		Short:                 s.summary,
		Long:                  long + exitCodesHelp,
		Example:               example,
		DisableFlagsInUseLine: true,
		Args:                  cobra.ArbitraryArgs, // each run says what is wrong in its own words
		ValidArgsFunction:     cobra.NoFileCompletions,
		RunE: func(c *cobra.Command, pos []string) error {
			a.code = a.runSubcommand(c, s, pos)
			return nil
		},
	}
	if s.flags != nil {
		s.flags(c.Flags())
	}
	if s.ids {
		c.ValidArgsFunction = a.completeSessionArg(s.offer)
	}
	for _, name := range s.idFlags {
		_ = c.RegisterFlagCompletionFunc(name, a.completeSessionID(offerNewest))
	}
	return c
}

// runSubcommand runs s with the flags cobra parsed, the config file's
// settings as the defaults of the flags not given, and a context that
// ctrl+c cancels.
func (a *app) runSubcommand(c *cobra.Command, s subcommand, pos []string) int {
	cmd := &command{name: c.Name(), stdio: a.stdio, fs: c.Flags(), conn: a.conn}
	cfg, err := config.Load()
	if err == nil {
		err = applyConfig(cmd.fs, cfg)
	}
	if err != nil {
		return cmd.usageError(err.Error())
	}
	cmd.conn.cfg = cfg
	ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt)
	defer stop()
	return s.run(ctx, cmd, a.base, pos)
}

// splitExamples cuts help at its "Examples:" line: the text before is the
// long help, the lines after the examples (fang draws them apart).
func splitExamples(help string) (long, examples string) {
	long, examples, _ = strings.Cut(help, "\nExamples:\n")
	return strings.TrimSpace(long), strings.TrimRight(examples, "\n ")
}

// subcommandNamed is cmd's subcommand called name, if any.
func subcommandNamed(cmd *cobra.Command, name string) (*cobra.Command, bool) {
	for _, c := range cmd.Commands() {
		if c.Name() == name || c.HasAlias(name) {
			return c, true
		}
	}
	return nil, false
}
