package cli

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/config"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/format"
)

// The shell's completion (`octop completion bash|zsh|fish` writes the
// script; the script asks `octop __complete …`) offers session ids from
// the servers the command line names, server names from the config file,
// and the values of --notify and --abort-on.

// completionWait bounds what completing one word may ask of the servers
// (a password_command included): the shell waits on it, so a server that
// is down or slow gives no completions rather than a hung prompt.
const completionWait = 2 * time.Second

// maxSessionCompletions caps the session ids offered at once, the most
// recently active first; typing more of an id narrows them.
const maxSessionCompletions = 100

// titleWidth caps the title shown beside a session id.
const titleWidth = 60

// noFiles is the directive of every completion here: never file names.
const noFiles = cobra.ShellCompDirectiveNoFileComp

// completeFlags gives the root's flags and every subcommand's their
// completions; a subcommand's session-id flags are its own (idFlags).
func (a *app) completeFlags(root *cobra.Command) {
	_ = root.RegisterFlagCompletionFunc("server", a.completeServerNames)
	for _, c := range append(root.Commands(), root) {
		if c.LocalFlags().Lookup("notify") != nil {
			_ = c.RegisterFlagCompletionFunc("notify", cobra.FixedCompletions([]string{"none", "bell", "osc", "all"}, noFiles))
		}
		if c.LocalFlags().Lookup("abort-on") != nil {
			_ = c.RegisterFlagCompletionFunc("abort-on", func(_ *cobra.Command, _ []string, word string) ([]string, cobra.ShellCompDirective) {
				return listItems(word, []string{"loop", "stall", "budget", "errors"}), noFiles
			})
		}
	}
}

// completeSessionArg is a command's completion of its one positional
// argument, a session id, offering first what o says applies.
func (a *app) completeSessionArg(o offer) cobra.CompletionFunc {
	return func(c *cobra.Command, args []string, word string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, noFiles // the id is given already
		}
		return a.completeSessionID(o)(c, args, word)
	}
}

// completeSessionID offers the ids starting with word of the sessions on
// the servers the command line names, each with its title, first what o
// says applies.
func (a *app) completeSessionID(o offer) cobra.CompletionFunc {
	return func(c *cobra.Command, _ []string, word string) ([]string, cobra.ShellCompDirective) {
		ctx := c.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		return a.sessionIDs(ctx, word, o), noFiles | cobra.ShellCompDirectiveKeepOrder
	}
}

// sessionIDs are the ids starting with prefix of the sessions on the
// servers the flags, the environment and the config file name, as
// "ID<tab>title" ("ID<tab>running · title" for one that runs): first
// what o says applies, each group the most recently active first.
// Nothing when no server answers within completionWait.
func (a *app) sessionIDs(ctx context.Context, prefix string, o offer) []string {
	ctx, cancel := context.WithTimeout(ctx, completionWait)
	defer cancel()
	conn := a.conn
	conn.cfg, _ = config.Load() // a malformed file names no server; the flags still may
	opts, err := conn.resolveAllCtx(ctx, a.base)
	if err != nil {
		return nil
	}
	lists := make([][]wire.Session, len(opts))
	states := make([]map[string]wire.SessionStatus, len(opts))
	var wg sync.WaitGroup
	for i, o := range opts {
		c, err := client.New(o)
		if err != nil {
			continue
		}
		wg.Go(func() { lists[i], _ = c.Sessions(ctx) })
		wg.Go(func() { states[i], _ = c.Status(ctx) })
	}
	wg.Wait()
	var found []wire.Session
	seen := map[string]bool{}
	for _, s := range slices.Concat(lists...) {
		if strings.HasPrefix(s.ID, prefix) && client.ValidSessionID(s.ID) && !seen[s.ID] {
			seen[s.ID] = true
			found = append(found, s)
		}
	}
	status := map[string]wire.SessionStatus{}
	for _, m := range states {
		maps.Copy(status, m)
	}
	slices.SortStableFunc(found, func(x, y wire.Session) int { return cmp.Compare(y.Time.Updated, x.Time.Updated) })
	var out []string
	for _, c := range ordered(found, status, o, maxSessionCompletions) {
		desc := shortTitle(c.s.Title)
		if c.running != "" {
			desc = c.running + " · " + desc
		}
		out = append(out, c.s.ID+"\t"+desc)
	}
	return out
}

// shortTitle is a session's title as a completion's description: one
// line with no escape or control characters (it comes from the server,
// and goes to the shell), cut to titleWidth.
func shortTitle(title string) string {
	t := []rune(format.OneLine(title))
	if len(t) > titleWidth {
		return string(t[:titleWidth-1]) + "…"
	}
	return string(t)
}

// completeServerNames offers the config file's server names for --server,
// each with its URL (its password hidden); after a comma, for the next
// server of the list.
func (a *app) completeServerNames(_ *cobra.Command, _ []string, word string) ([]string, cobra.ShellCompDirective) {
	cfg, err := config.Load()
	if err != nil {
		return nil, noFiles
	}
	var names []string
	for _, s := range cfg.Servers {
		if s.Name != "" {
			names = append(names, format.OneLine(s.Name)+"\t"+format.OneLine(redactURL(s.URL)))
		}
	}
	return listItems(word, names), noFiles
}

// listItems completes the last item of word, a comma-separated list: the
// items (each "NAME" or "NAME<tab>description") that start with it,
// after the items already typed.
func listItems(word string, items []string) []string {
	typed, last := "", word
	if i := strings.LastIndex(word, ","); i >= 0 {
		typed, last = word[:i+1], word[i+1:]
	}
	var out []string
	for _, it := range items {
		if name, _, _ := strings.Cut(it, "\t"); strings.HasPrefix(name, last) {
			out = append(out, typed+it)
		}
	}
	return out
}
