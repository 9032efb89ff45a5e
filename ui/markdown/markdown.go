// Package markdown renders an agent's markdown for a terminal width, as
// the result view and the transcript show it. goldmark parses it
// (CommonMark with GitHub's tables, strikethrough and task lists) and this
// package draws the tree: headings with their # marks, wrapped
// paragraphs, lists, quotes, code blocks, tables, links as text and
// address. Colours follow the terminal's background; under NO_COLOR only
// bold, italic and underline mark anything. It needs no syntax
// highlighter, which keeps octop's memory small.
package markdown

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/ui/format"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Renderer renders markdown; it is not safe for concurrent use (the ui
// calls it from View and Update only). It keeps its last rendering, since
// a running task's answer is drawn again every second, mostly unchanged.
type Renderer struct {
	style  string // "dark", "light" or "nocolor"
	pal    *palette
	parser parser.Parser
	src    []byte // the text being rendered

	last struct {
		text  string
		width int
		out   string
	}
}

// New returns a Renderer for a dark or light background, or none
// (noColor).
func New(isDark, noColor bool) *Renderer {
	style := "dark"
	switch {
	case noColor:
		style = "nocolor"
	case !isDark:
		style = "light"
	}
	// Linkify is left out: a bare address reads the same as a link to it.
	md := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))
	return &Renderer{style: style, pal: newPalette(isDark, noColor), parser: md.Parser()}
}

// Render returns text rendered for width cells: no line wider than width,
// none ending in spaces, no blank line first or last. Should rendering
// fail, it returns the text wrapped as it is.
func (r *Renderer) Render(text string, width int) string {
	text = clean(text)
	width = max(width, 1)
	if r.last.out != "" && text == r.last.text && width == r.last.width {
		return r.last.out
	}
	out, err := r.render(text, width)
	if err != nil {
		out = ansi.Wrap(text, width, "")
	}
	out = finish(out, width)
	r.last.text, r.last.width, r.last.out = text, width, out
	return out
}

func (r *Renderer) render(s string, width int) (out string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("markdown: %v", p)
		}
		r.src = nil
	}()
	r.src = []byte(s)
	doc := r.parser.Parse(text.NewReader(r.src))
	return strings.Join(r.blocks(doc, width, false), "\n"), nil
}

// clean makes an agent's text safe to draw (format.Text): tabs become
// four spaces (a terminal would draw them as up to eight cells that
// widths do not count) and every other control character, escapes among
// them, is shown as its picture, so the text cannot move the cursor or
// change colours, and a person sees that something was there.
func clean(s string) string { return strings.TrimSpace(format.Text(s)) }

// finish holds out to Render's promise: each line cut to width and
// without trailing spaces, blank lines at either end dropped.
func finish(out string, width int) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			l = ansi.Truncate(l, width, "…")
		}
		lines[i] = trimRight(l)
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// trimRight drops a line's trailing spaces, also those before its
// closing escape codes; a line with no text left is empty.
func trimRight(l string) string {
	if strings.TrimSpace(ansi.Strip(l)) == "" {
		return ""
	}
	suffix := ""
	for {
		t := strings.TrimRight(l, " ")
		if !strings.HasSuffix(t, "m") {
			return t + suffix
		}
		j := strings.LastIndex(t, "\x1b[")
		if j < 0 || strings.Trim(t[j+2:len(t)-1], "0123456789;:") != "" {
			return t + suffix
		}
		l, suffix = t[:j], t[j:]+suffix
	}
}
