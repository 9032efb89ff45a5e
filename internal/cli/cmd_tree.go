package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/model"
)

const treeHelp = `
Print every session of the project as a tree: roots newest first, children
in creation order. Each line shows the session id, its status (running,
complete, aborted, error, or idle when it never ran), its tool calls
(total, and how many run or failed) and its title; for an error, why:
interrupted, denied, or the error's name, then its message; for an abort,
who stopped it. Every session's whole
history is read, so this is what the screen shows once loaded.

With several servers (--server given more than once, or a comma list), each
server's tree comes under a line "server URL"; a server that cannot be read
is one line on stderr, the others still print, and the exit code is 1.

With --json, print the same as a JSON array of root nodes, each with
"server" (the URL of the server that holds it), "id", "parentID", "title", "agent", "status", "reason" (for an error:
aborted|interrupted|denied|the error's name; running: background|stopping), "run" (idle|busy|retry),
"error", "tools" {total, running, completed, failed, aborted, interrupted}
(each call in one count: aborted is cut by an abort, interrupted left open
by a session that stopped), "created" (Unix ms),
"tokens" {input, output, reasoning, cache_read, cache_write}, "cost" (USD:
the priced replies' sum, or null when no reply is priced, never a made-up
0), "unpriced_replies" (replies that used tokens with no cost reported,
which "cost" leaves out), "started", "ended" (Unix ms; 0 while running), "duration_ms",
"last_activity", "files_changed", "todos" {total, done} (the list of a
session that called todowrite, the one tool that keeps one), the same figures
over the session and all its descendants under "subtree", and "children".
The figures add up the session's messages as the server lists them. The
JSON is indented at most 32 levels deep, and the text tree draws at most
32 levels of guides ("… " before them), so a deep tree prints in
proportion to its size. A session whose id is malformed is left out with
a line on stderr.

Examples:
  octop tree
  octop tree --json | jq '.. | objects | select(.status == "running") | .id'`

func (a *app) newTree() *cobra.Command {
	var asJSON bool
	return a.newSubcommand(subcommand{
		use:     "tree",
		summary: "print the session tree with statuses and tool-call counts",
		help:    treeHelp,
		flags: func(fs *pflag.FlagSet) {
			fs.BoolVar(&asJSON, "json", false, "print JSON instead of text")
		},
		run: func(ctx context.Context, cmd *command, base client.Options, pos []string) int {
			return runTree(ctx, cmd, base, pos, asJSON)
		},
	})
}

func runTree(ctx context.Context, cmd *command, base client.Options, pos []string, asJSON bool) int {
	stdio := cmd.stdio
	if len(pos) > 0 {
		return cmd.usageError("unexpected argument " + pos[0])
	}
	cs, code, ok := cmd.newClients(base)
	if !ok {
		return code
	}
	trees := readTrees(ctx, cs)
	code = codeOK
	for _, t := range trees {
		for _, id := range t.skipped() {
			fmt.Fprintf(cmd.stdio.err, "octop tree: skipped a session whose id is malformed: %s\n", squashSpaces(id))
		}
		switch {
		case t.err != nil && len(trees) > 1:
			code = cmd.fail(fmt.Errorf("%s: %w", t.server, t.err))
		case t.err != nil:
			return cmd.fail(t.err)
		}
	}
	if asJSON {
		// Root by root: 50,000 sessions are never held as Nodes, or as
		// JSON, all at once.
		out := newJSONArray(stdio.out)
		for _, t := range trees {
			if t.err != nil {
				continue
			}
			if err := t.forest.Each(func(r *live.Node) error {
				r.Server = t.server
				b, err := nodeJSON(r)
				if err != nil {
					return err
				}
				return out.addJSON(b)
			}); err != nil {
				return cmd.fail(err)
			}
		}
		if err := out.close(); err != nil {
			return cmd.fail(err)
		}
		return code
	}
	w := newLineWriter(stdio.out)
	for _, t := range trees {
		printTree(w, t, len(trees) > 1)
	}
	if err := w.Flush(); err != nil {
		return cmd.fail(err)
	}
	return code
}

// serverTree is one server's part of `octop tree`.
type serverTree struct {
	server string
	forest *live.Forest
	err    error
}

// skipped are the sessions left out: their ids are malformed.
func (t serverTree) skipped() []string {
	if t.forest == nil {
		return nil
	}
	return t.forest.Skipped
}

// readTrees reads every server's tree at once, so a slow or dead server
// costs only its own time.
func readTrees(ctx context.Context, cs []*client.Client) []serverTree {
	out := make([]serverTree, len(cs))
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Go(func() {
			t := serverTree{server: c.BaseURL()}
			if t.err = live.CheckDirectory(ctx, c); t.err == nil {
				t.forest, t.err = live.ReadForest(ctx, c)
			}
			out[i] = t
		})
	}
	wg.Wait()
	return out
}

// printTree prints one server's roots, under a line naming the server
// when there are several.
func printTree(w io.Writer, t serverTree, named bool) {
	if named {
		fmt.Fprintf(w, "server %s\n", t.server)
	}
	if t.err != nil {
		return // said on stderr
	}
	n := 0
	_ = t.forest.Each(func(r *live.Node) error {
		printNode(w, r)
		n++
		return nil
	})
	if n == 0 {
		fmt.Fprintln(w, "no sessions")
	}
}

// maxGuides is how many levels of tree guides a line draws at most; a
// deeper line starts with "… " and the last maxGuides levels, so that a
// chain of thousands of sessions prints in lines of bounded length.
const maxGuides = 32

// printNode prints n and its subtree with tree guides, after its children
// a stack of the siblings still to print at each level rather than
// recursion: however deep the tree, it costs a step per session.
func printNode(w io.Writer, n *live.Node) {
	type level struct{ rest []*live.Node } // the siblings still to print
	var stack []level
	// more[i] says level i+1 has siblings still to come: its guide is "│".
	var more []bool
	for cur := n; cur != nil; {
		fmt.Fprintln(w, guides(more)+nodeLine(cur))
		if len(cur.Children) > 0 {
			stack = append(stack, level{rest: cur.Children})
			more = append(more, false)
		}
		cur = nil
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if len(top.rest) == 0 {
				stack, more = stack[:len(stack)-1], more[:len(more)-1]
				continue
			}
			cur, top.rest = top.rest[0], top.rest[1:]
			more[len(more)-1] = len(top.rest) > 0
			break
		}
	}
}

// guides is the prefix of a line at depth len(more): "│  " or "   " for
// each ancestor level, then "├─ " or "└─ " for its own.
func guides(more []bool) string {
	if len(more) == 0 {
		return ""
	}
	var b strings.Builder
	from := 0
	if len(more) > maxGuides {
		from = len(more) - maxGuides
		b.WriteString("… ")
	}
	for i := from; i < len(more)-1; i++ {
		if more[i] {
			b.WriteString("│  ")
		} else {
			b.WriteString("   ")
		}
	}
	if more[len(more)-1] {
		b.WriteString("├─ ")
	} else {
		b.WriteString("└─ ")
	}
	return b.String()
}

// nodeLine is a session's line: id, status, tools, title, and for an
// error or a wait why.
func nodeLine(n *live.Node) string {
	status, why := n.Status, squashSpaces(n.Reason)
	if why == model.ReasonAborted {
		// Someone chose to stop it: the screen marks it ■, not as a
		// failure, and so does this line.
		status, why = model.EndAborted, ""
	}
	title := squashSpaces(n.Title)
	if n.Undecodable != "" {
		title = "(undecodable: " + squashSpaces(n.Undecodable) + ")"
	}
	line := fmt.Sprintf("%s  %-8s  %s  %s", n.ID, status, toolSummary(n.Tools), title)
	switch errText := squashSpaces(n.Error); {
	case why != "" && errText != "":
		line += "  [" + why + ": " + errText + "]"
	case why != "":
		line += "  [" + why + "]" // running, waiting on its background tasks
	case errText != "":
		line += "  [" + errText + "]"
	}
	return line
}

func toolSummary(t live.ToolCounts) string {
	s := fmt.Sprintf("tools:%d", t.Total)
	var extra []string
	if t.Running > 0 {
		extra = append(extra, fmt.Sprintf("%d running", t.Running))
	}
	if t.Failed > 0 {
		extra = append(extra, fmt.Sprintf("%d failed", t.Failed))
	}
	if t.Aborted > 0 {
		extra = append(extra, fmt.Sprintf("%d aborted", t.Aborted))
	}
	if t.Interrupted > 0 {
		extra = append(extra, fmt.Sprintf("%d interrupted", t.Interrupted))
	}
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, ", ") + ")"
	}
	return s
}
