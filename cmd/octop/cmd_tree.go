package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/octop-dev/octop/actions"
	"github.com/octop-dev/octop/client"
)

const treeHelp = `
Print every session of the project as a tree: roots newest first, children
in creation order. Each line shows the session id, its status (running,
complete, error, or idle when it never ran), its tool calls (total, and how
many run or failed) and its title; for an error, why: aborted, interrupted,
denied, or the error's name, then its message. Every session's whole
history is read, so this is what the screen shows once loaded.

With --json, print the same as a JSON array of root nodes, each with
"id", "parentID", "title", "agent", "status", "reason" (for an error:
aborted|interrupted|denied|the error's name), "run" (idle|busy|retry),
"error", "tools" {total, running, completed, failed}, "created" (Unix ms),
"tokens" {input, output, reasoning, cache_read, cache_write}, "cost",
"started", "ended" (Unix ms; 0 while running), "duration_ms",
"last_activity", "files_changed", "todos" {total, done}, the same figures
over the session and all its descendants under "subtree", and "children".
The figures add up the session's messages as the server lists them.

Examples:
  octop tree
  octop tree --json | jq '.. | objects | select(.status == "running") | .id'`

func runTree(ctx context.Context, stdio cmdIO, base client.Options, args []string) int {
	cmd := newCommand("tree", "tree [--json]", treeHelp, stdio)
	var asJSON bool
	cmd.fs.BoolVar(&asJSON, "json", false, "print JSON instead of text")
	pos, code, done := cmd.parse(args)
	if done {
		return code
	}
	if len(pos) > 0 {
		return cmd.usageError("unexpected argument " + pos[0])
	}
	c, code, ok := cmd.newClient(base)
	if !ok {
		return code
	}
	if err := actions.CheckDirectory(ctx, c); err != nil {
		return cmd.fail(err)
	}
	roots, err := actions.Tree(ctx, c)
	if err != nil {
		return cmd.fail(err)
	}
	if asJSON {
		enc := json.NewEncoder(stdio.out)
		enc.SetIndent("", "  ")
		if roots == nil {
			roots = []*actions.Node{}
		}
		if err := enc.Encode(roots); err != nil {
			return cmd.fail(err)
		}
		return codeOK
	}
	if len(roots) == 0 {
		fmt.Fprintln(stdio.out, "no sessions")
		return codeOK
	}
	for _, r := range roots {
		printNode(stdio.out, r, "", "")
	}
	return codeOK
}

// printNode prints n with tree guides: first is the prefix of n's own line,
// rest the prefix of its descendants' lines.
func printNode(w io.Writer, n *actions.Node, first, rest string) {
	line := fmt.Sprintf("%s%s  %-8s  %s  %s", first, n.ID, n.Status, toolSummary(n.Tools), squashSpaces(n.Title))
	if n.Reason != "" {
		line += "  [" + n.Reason + ": " + n.Error + "]"
	}
	fmt.Fprintln(w, line)
	for i, ch := range n.Children {
		if i == len(n.Children)-1 {
			printNode(w, ch, rest+"└─ ", rest+"   ")
		} else {
			printNode(w, ch, rest+"├─ ", rest+"│  ")
		}
	}
}

func toolSummary(t actions.ToolCounts) string {
	s := fmt.Sprintf("tools:%d", t.Total)
	var extra []string
	if t.Running > 0 {
		extra = append(extra, fmt.Sprintf("%d running", t.Running))
	}
	if t.Failed > 0 {
		extra = append(extra, fmt.Sprintf("%d failed", t.Failed))
	}
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, ", ") + ")"
	}
	return s
}
