package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/usage"
)

const usageHelp = `
Print what the server's sessions used: tokens (input, output, reasoning,
cache read, cache write) and cost, grouped --by agent (default), model,
root, day (the reply's local day) or end (how the session ended:
complete, failed, aborted, interrupted, denied, or running), with the
total and a line saying what ended badly cost. Every figure is the sum of
the replies' own figures as the server lists them, so any grouping adds up
to the same total. With several servers (--server given more than once),
their sessions are added up together.

Columns: sessions (that have replies in the group), replies (assistant
messages), input, output, reasoning, cache read, cache write, cost (USD).
A reply that used tokens but whose cost the server gave as 0 (it has no
price for the model) is unpriced: its tokens count, its cost is missing,
not $0. A cost is written "≥$1.2300" when some of its replies are
unpriced (the known part is a lower bound), "n/a" when nothing is
priced.

With --json, print {"by", "since" (Unix ms, 0 for all), "rows": [{"key",
"label", "sessions", "replies", "tokens": {input, output, reasoning,
cache_read, cache_write}, "cost", "unpriced_replies"}], "total", "ends"
(the same figures by end), "ended_badly"}. "cost" is the priced
replies' sum, or null when nothing is priced (never a made-up 0), and
"unpriced_replies" says how many replies it leaves out.

Examples:
  octop usage --since 7d
  octop usage --by end --json | jq '.ended_badly.cost'`

// usageFlags are octop usage's own flags.
type usageFlags struct {
	by, since string
	json      bool
}

func (a *app) newUsage() *cobra.Command {
	var f usageFlags
	return a.newSubcommand(subcommand{
		use:     "usage",
		summary: "print tokens and cost by agent, model, root, day or how sessions ended",
		help:    usageHelp,
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&f.by, "by", string(usage.ByAgent), "group by GROUPING: agent, model, root, day or end")
			fs.StringVar(&f.since, "since", "", "count only replies from this DURATION back from now (24h, 7d, 2w)")
			fs.BoolVar(&f.json, "json", false, "print JSON instead of text")
		},
		run: func(ctx context.Context, cmd *command, base client.Options, pos []string) int {
			return runUsage(ctx, cmd, base, pos, f)
		},
	})
}

func runUsage(ctx context.Context, cmd *command, base client.Options, pos []string, f usageFlags) int {
	byFlag, since, asJSON := f.by, f.since, f.json
	if len(pos) > 0 {
		return cmd.usageError("unexpected argument " + pos[0])
	}
	by, err := usage.ParseBy(byFlag)
	if err != nil {
		return cmd.usageError(err.Error())
	}
	cutoff, err := parseSince(since, time.Now())
	if err != nil {
		return cmd.usageError(err.Error())
	}
	cs, code, ok := cmd.newClients(base)
	if !ok {
		return code
	}
	sessions, errs := readUsage(ctx, cs, cutoff)
	code = codeOK
	for _, err := range errs {
		code = cmd.fail(err)
	}
	if len(errs) == len(cs) {
		return code
	}
	l := usage.Build(sessions, by, usage.Options{Since: cutoff, Loc: time.Local})
	if asJSON {
		if err := printJSON(cmd.stdio.out, usageJSON{Report: l, Since: cutoff, EndedBadly: l.Bad(), Aborted: l.Aborted()}); err != nil {
			return cmd.fail(err)
		}
		return code
	}
	printReport(cmd.stdio.out, l)
	return code
}

// usageJSON is what --json prints.
type usageJSON struct {
	usage.Report
	Since      int64         `json:"since"`
	EndedBadly usage.Figures `json:"ended_badly"`
	// Aborted is apart from EndedBadly: someone stopped that work.
	Aborted usage.Figures `json:"aborted"`
}

// readUsage reads every server's sessions with the messages of the
// roots active since cutoff, at once; a server that cannot be read is an
// error naming it (when there are several), the others still count.
func readUsage(ctx context.Context, cs []*client.Client, cutoff int64) ([]usage.Session, []error) {
	out := make([][]usage.Session, len(cs))
	errs := make([]error, len(cs))
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			roots, err := rootsSince(ctx, c, cutoff)
			if err == nil {
				// A session with a malformed id is left out, as tree warns.
				st, history, _, lerr := live.LoadTrees(ctx, c, roots)
				if err = lerr; err == nil {
					out[i] = usage.FromState(st, roots, history)
				}
			}
			if err != nil && len(cs) > 1 {
				err = fmt.Errorf("%s: %w", c.BaseURL(), err)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	var all []usage.Session
	var failed []error
	for i := range cs {
		all = append(all, out[i]...)
		if errs[i] != nil {
			failed = append(failed, errs[i])
		}
	}
	return all, failed
}

// printReport prints the table, its total, what ended badly, and what had
// no cost.
func printReport(w io.Writer, l usage.Report) {
	head := append([]string{strings.ToUpper(string(l.By))}, upper(usage.Columns)...)
	rows := [][]string{head}
	for _, r := range l.Rows {
		name := serverText(r.Key)
		if r.Label != "" {
			name += " " + ansi.Truncate(serverText(r.Label), 40, "…")
		}
		rows = append(rows, append([]string{name}, usage.Cells(r.Figures, wholeTokens)...))
	}
	rows = append(rows, append([]string{"total"}, usage.Cells(l.Total, wholeTokens)...))
	widths := make([]int, len(head))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-ansi.StringWidth(c))
			if i == 0 {
				b.WriteString(c + pad)
			} else {
				b.WriteString("  " + pad + c)
			}
		}
		fmt.Fprintln(w, b.String())
	}
	fmt.Fprintln(w, l.BadLine(wholeTokens))
	if a := l.AbortedLine(wholeTokens); a != "" {
		fmt.Fprintln(w, a)
	}
	if u := l.UnpricedLine(); u != "" {
		fmt.Fprintln(w, u)
	}
}

func upper(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToUpper(s)
	}
	return out
}

func wholeTokens(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
