package markdown

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// blocks draws n's block children for width cells, a blank line between
// two blocks unless tight (the items of a tight list).
func (r *Renderer) blocks(n ast.Node, width int, tight bool) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines := r.block(c, width)
		if len(lines) == 0 {
			continue
		}
		if len(out) > 0 && !tight {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

func (r *Renderer) block(n ast.Node, width int) []string {
	p := r.pal
	switch n := n.(type) {
	case *ast.Heading:
		marks := strings.Repeat("#", n.Level) + " "
		var b strings.Builder
		b.WriteString(p.paint(marks, lookHeading))
		r.inlines(&b, n, lookHeading)
		return wrap(b.String(), width)
	case *ast.Paragraph, *ast.TextBlock:
		var b strings.Builder
		r.inlines(&b, n, 0)
		return wrap(strings.TrimRight(b.String(), " \n"), width)
	case *ast.ThematicBreak:
		return []string{p.paint(strings.Repeat("─", width), lookDim)}
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		return r.codeBlock(n, width)
	case *ast.HTMLBlock:
		lines := r.source(n)
		if n.HasClosure() {
			lines = append(lines, strings.TrimRight(string(n.ClosureLine.Value(r.src)), "\n"))
		}
		return wrap(p.paint(strings.Join(lines, "\n"), 0), width)
	case *ast.Blockquote:
		bar := p.paint("│", lookDim)
		lines := r.blocks(n, max(width-2, 1), false)
		for i, l := range lines {
			lines[i] = bar + " " + l
		}
		return lines
	case *ast.List:
		return r.list(n, width)
	case *east.Table:
		return r.table(n, width)
	}
	if n.FirstChild() != nil {
		return r.blocks(n, width, false)
	}
	return wrap(p.paint(strings.Join(r.source(n), "\n"), 0), width)
}

// source is n's own lines of markdown, verbatim and not yet cleaned:
// they are drawn through paint.
func (r *Renderer) source(n ast.Node) []string {
	lines := n.Lines()
	out := make([]string, 0, lines.Len())
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		out = append(out, strings.TrimRight(string(seg.Value(r.src)), "\n"))
	}
	return out
}

// codeBlock draws code indented by two cells, one line of code a line:
// code does not wrap, since a wrapped line reads as two; what is wider
// than the width is cut with an ellipsis.
func (r *Renderer) codeBlock(n ast.Node, width int) []string {
	lines := r.source(n)
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	indent := "  "
	if width < 8 {
		indent = ""
	}
	for i, l := range lines {
		lines[i] = indent + ansi.Truncate(r.pal.paint(l, lookCode), width-len(indent), "…")
	}
	return lines
}

// list draws a list's items, each under its bullet, number or task box,
// what follows the first line indented to its text.
func (r *Renderer) list(n *ast.List, width int) []string {
	var out []string
	num := n.Start
	last := strconv.Itoa(n.Start + n.ChildCount() - 1)
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		marker := "• "
		if n.IsOrdered() {
			s := strconv.Itoa(num) + string(n.Marker) + " "
			marker = s + strings.Repeat(" ", max(len(last)+2-len(s), 0))
			num++
		}
		if box, ok := taskBox(item); ok {
			marker = box
		}
		indent := strings.Repeat(" ", ansi.StringWidth(marker))
		lines := r.blocks(item, max(width-len(indent), 1), n.IsTight)
		if len(lines) == 0 {
			lines = []string{""}
		}
		if len(out) > 0 && !n.IsTight {
			out = append(out, "")
		}
		for i, l := range lines {
			switch {
			case i == 0:
				l = r.pal.paint(marker, 0) + l
			case l != "":
				l = indent + l
			}
			out = append(out, l)
		}
	}
	return out
}

// taskBox is the box of a task list item ("- [x] done"), if it is one.
func taskBox(item ast.Node) (string, bool) {
	first := item.FirstChild()
	if first == nil {
		return "", false
	}
	box, ok := first.FirstChild().(*east.TaskCheckBox)
	if !ok {
		return "", false
	}
	if box.IsChecked {
		return "[✓] ", true
	}
	return "[ ] ", true
}

// wrap breaks s, which may hold escape codes and newlines, into lines of
// at most width cells, at spaces where it can, each line's style closed
// at its end (see carry).
func wrap(s string, width int) []string {
	return carry(strings.Split(ansi.Wrap(s, max(width, 1), ""), "\n"))
}
