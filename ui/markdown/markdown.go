// Package markdown renders an agent's markdown for a terminal width, as
// the result view and the transcript show it. goldmark parses it
// (CommonMark with GitHub's tables, strikethrough and task lists) and this
// package draws the tree: headings with their # marks, wrapped
// paragraphs, lists, quotes, code blocks, tables, links as text and
// address. Colours follow the terminal's background; under NO_COLOR only
// bold, italic and underline mark anything. It needs no syntax
// highlighter, which keeps octop's memory small.
//
// The text is cleaned (by the one sanitizer) where it leaves the
// renderer, after everything goldmark decodes: character references
// (&#x1b; is an escape once resolved), backslash escapes, link
// destinations, raw HTML. Every piece of the answer enters a rendering
// through the palette's paint, which cleans it; the renderer's own colour
// codes are the only escapes that come out. How much is parsed as
// markdown is bounded (limit.go).
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
//
// Past MaxBytes, or from a line nested deeper than MaxDepth, the text is
// shown as it is, wrapped, under a note saying where markdown stopped;
// past format.MaxText it is cut, and a note says so.
func (r *Renderer) Render(text string, width int) string {
	width = max(width, 1)
	if r.last.out != "" && text == r.last.text && width == r.last.width {
		return r.last.out
	}
	shown, cutNote := format.Bounded(text)
	md, rest, note := limit(lineEnds(shown))
	out, err := r.render(strings.TrimSpace(md), width)
	if err != nil {
		out = format.Wrap(md, width)
	}
	if note != "" {
		out += "\n\n" + r.note(note, width) + "\n" + format.Wrap(rest, width)
	}
	if cutNote != "" {
		out += "\n\n" + r.note(cutNote, width)
	}
	out = finish(out, width)
	r.last.text, r.last.width, r.last.out = text, width, out
	return out
}

// note is one of the renderer's own notes, dim, wrapped to width.
func (r *Renderer) note(s string, width int) string {
	return strings.Join(wrap(r.pal.paint(s, lookDim), width), "\n")
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

// lineEnds makes every CRLF a newline, the one line end goldmark's
// segments leave out of a line's text; a lone carriage return is left for
// the cleaning to show.
func lineEnds(s string) string {
	if !strings.Contains(s, "\r\n") {
		return s
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

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
