package cli

import (
	"fmt"
	"strings"

	mcobra "github.com/muesli/mango-cobra"
	"github.com/muesli/roff"
	"github.com/spf13/cobra"

	"github.com/octop-dev/octop/client"
)

// strictBuiltins makes cobra's own `help` and `completion` commands treat
// a word they do not know as bad usage (one line, exit 2), as octop's
// commands do, rather than print the help and exit 0; and `completion
// bash` say when the bash-completion package is missing.
func strictBuiltins(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	if help, ok := subcommandNamed(root, "help"); ok {
		show := help.Run
		help.Run = nil
		help.RunE = func(c *cobra.Command, args []string) error {
			if cmd, rest, err := c.Root().Find(args); err != nil || cmd == nil || len(rest) > 0 {
				return usageErr{fmt.Sprintf("octop help: unknown command %q; run `octop --help` for the list", strings.Join(args, " "))}
			}
			show(c, args)
			return nil
		}
	}
	if comp, ok := subcommandNamed(root, "completion"); ok {
		// Runnable, so that its Args (none) refuse a shell it does not know.
		comp.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
		if bash, ok := subcommandNamed(comp, "bash"); ok {
			bash.RunE = func(c *cobra.Command, _ []string) error {
				noDesc, _ := c.Flags().GetBool("no-descriptions")
				return writeBashCompletion(c, !noDesc)
			}
		}
	}
}

// newMan is `octop man`: the man page, in roff, from the same commands,
// flags and help.
func (a *app) newMan() *cobra.Command {
	return &cobra.Command{
		Use:   "man",
		Short: "print octop's man page (roff): octop man > octop.1",
		Long: "Print octop's man page in roff, made from the same commands, flags and help as --help.\n" +
			"Read it with 'octop man | man -l -', or install it into a man directory.",
		Example:               "octop man | man -l -\noctop man > ~/.local/share/man/man1/octop.1",
		Args:                  cobra.NoArgs,
		DisableFlagsInUseLine: true,
		RunE: func(c *cobra.Command, _ []string) error {
			page, err := manPage(c.Root())
			if err == nil {
				_, err = fmt.Fprint(c.OutOrStdout(), page)
			}
			if err != nil {
				fmt.Fprintf(a.stdio.err, "octop man: %s\n", squashSpaces(err.Error()))
				a.code = codeFail
			}
			return nil
		},
	}
}

// manSections follow the commands and options in the man page.
var manSections = [][2]string{
	{"Exit status", strings.ReplaceAll(exitCodes, "\n", " ")},
	{"Environment", "OPENCODE_SERVER_URL: the server, or a comma-separated list, when --server is not given (default " + client.DefaultURL + ").\n" +
		"OPENCODE_SERVER_PASSWORD, OPENCODE_SERVER_USERNAME: its basic-auth login, when --password and --username are not given.\n" +
		"OCTOP_CONFIG: the config file to read instead of $XDG_CONFIG_HOME/octop/config.toml.\n" +
		"NO_COLOR: any non-empty value turns colour off.\n" +
		"OCTOP_RENDERER=bubbletea: draw the screen with Bubble Tea's own renderer."},
	{"Files", "$XDG_CONFIG_HOME/octop/config.toml (~/.config/octop/config.toml): servers, watchdog and notify settings; " +
		"flags win over the environment, and the environment over the file."},
}

// manPage is root's man page, its help's paragraphs each one paragraph
// of roff.
func manPage(root *cobra.Command) (string, error) {
	page, err := mcobra.NewManPage(1, root)
	if err != nil {
		return "", err
	}
	page = page.WithLongDescription(paragraphs(root.Long))
	for _, s := range manSections {
		page = page.WithSection(s[0], s[1])
	}
	return strings.TrimRight(page.Build(roff.NewDocument()), "\n") + "\n", nil
}

// paragraphs joins the lines of each paragraph of text (they are
// separated by a blank line) into one, a paragraph a line.
func paragraphs(text string) string {
	ps := strings.Split(strings.TrimSpace(text), "\n\n")
	for i, p := range ps {
		ps[i] = strings.Join(strings.Fields(p), " ")
	}
	return strings.Join(ps, "\n")
}
