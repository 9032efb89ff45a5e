package transcript

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/transcript"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/styles"
)

// foldedOutput is how many output lines a folded tool call shows.
const foldedOutput = 4

// maxCached bounds the rendered entries kept; past it the cache starts
// over (a screen needs a few dozen).
const maxCached = 4096

type cacheKey struct {
	id       string // part id, or message id for an error
	width    int
	expanded bool
	selected bool
}

type cached struct {
	print string // what the entry held when rendered
	lines []string
}

// renderer draws entries and keeps each drawing until its entry, the
// width, its fold or the cursor on it changes.
type renderer struct {
	st    *styles.Styles
	md    func(text string, width int) string
	cache map[cacheKey]cached
}

func newRenderer(st *styles.Styles, md func(string, int) string) *renderer {
	if md == nil {
		md = func(text string, width int) string { return format.Wrap(strings.TrimSpace(text), width) }
	}
	return &renderer{st: st, md: md, cache: map[cacheKey]cached{}}
}

func entryKey(e *transcript.Entry) string {
	if e.PartID != "" {
		return e.PartID
	}
	return e.MessageID + "/" + string(e.Kind)
}

// fingerprint changes when anything the drawing shows changes.
func fingerprint(e *transcript.Entry) string {
	return fmt.Sprintf("%s|%s|%d|%d|%d|%s|%s|%t", e.Kind, e.Status, len(e.Text), len(e.Output), len(e.Error), e.ChildID, e.Input, e.Queued)
}

// lines is the entry drawn for width cells, a blank line after it, the
// cursor's gutter mark on every line when selected.
func (r *renderer) lines(e *transcript.Entry, width int, expanded, selected bool) []string {
	k := cacheKey{entryKey(e), width, expanded, selected}
	fp := fingerprint(e)
	if c, ok := r.cache[k]; ok && c.print == fp {
		return c.lines
	}
	if len(r.cache) >= maxCached {
		clear(r.cache)
	}
	body := r.body(e, max(width-2, 8), expanded)
	gutter, ink := "  ", r.st.Ink
	if selected {
		gutter = ink.Focused.Render("▌") + " "
	}
	out := make([]string, 0, len(body)+1)
	for _, l := range body {
		out = append(out, gutter+l)
	}
	out = append(out, "")
	r.cache[k] = cached{print: fp, lines: out}
	return out
}

func (r *renderer) body(e *transcript.Entry, w int, expanded bool) []string {
	ink := r.st.Ink
	switch e.Kind {
	case transcript.KindPrompt:
		lines := prefixed(wrap(e.Text, w-2), ink.Badge.Render("» "), "  ", ink.Title)
		if e.Queued {
			lines = append(lines, prefixed(wrap("("+transcript.QueuedNote+")", w-2), "  ", "  ", ink.Busy)...)
		}
		return lines
	case transcript.KindReasoning:
		lines := wrap(e.Text, w-2)
		if !expanded && len(lines) > 1 {
			more := fmt.Sprintf(" (+%s, enter)", plural(len(lines)-1, "line"))
			// On a narrow pane the note itself is cut: no line is wider
			// than the pane.
			lines = []string{ansi.Truncate(ansi.Truncate(lines[0], max(w-2-len(more), 1), "…")+more, w-2, "…")}
		}
		return prefixed(lines, ink.Dim.Render("~ "), ink.Dim.Render("~ "), ink.Dim)
	case transcript.KindError:
		return prefixed(wrap(transcript.ErrorLine(*e), w-2), ink.Failed.Render("✗ "), "  ", ink.Failed)
	case transcript.KindTool:
		return r.tool(e, w, expanded)
	case transcript.KindBackground:
		return r.notice(e, w, expanded)
	}
	return strings.Split(r.md(e.Text, w), "\n")
}

func (r *renderer) tool(e *transcript.Entry, w int, expanded bool) []string {
	ink := r.st.Ink
	head := ink.Done
	switch e.Status { // model.CallStatus's word
	case model.ToolPending.String(), model.ToolRunning.String():
		head = ink.Busy
	case model.ToolError.String():
		head = ink.Failed
	case model.ToolAborted.String():
		head = ink.Aborted
	case model.ToolInterrupted.String():
		head = ink.Interrupted
	}
	line := format.OneLine(transcript.ToolLine(*e)) // the input and title are the server's
	if e.ChildID != "" {
		line += "  (enter opens it)"
	}
	out := []string{head.Render(ansi.Truncate(line, w, "…"))}
	if e.Status == model.ToolError.String() && e.Error != "" {
		for _, l := range wrap(e.Error, w-6) {
			out = append(out, "    "+ink.Failed.Render("✗ "+l))
		}
	}
	if e.Output == "" {
		return out
	}
	lines := strings.Split(strings.TrimRight(bounded(e.Output), "\n"), "\n")
	shown := lines
	if !expanded && len(lines) > foldedOutput {
		shown = lines[:foldedOutput]
	}
	for _, l := range shown {
		l = format.Text(strings.TrimRight(l, "\r"))
		out = append(out, "    "+ink.Dim.Render(ansi.Truncate(l, w-4, "…")))
	}
	if len(shown) < len(lines) {
		more := fmt.Sprintf("… %s (enter)", plural(len(lines)-len(shown), "more line"))
		out = append(out, "    "+ink.Dim.Render(ansi.Truncate(more, w-4, "…")))
	}
	return out
}

// notice is a background task's end notice: how the child ended, then
// what it said, folded like a call's output.
func (r *renderer) notice(e *transcript.Entry, w int, expanded bool) []string {
	ink := r.st.Ink
	head := ink.Done
	if e.Status == "error" {
		head = ink.Failed
	}
	line := format.OneLine(transcript.NoticeLine(*e))
	if e.ChildID != "" {
		line += "  (enter opens it)"
	}
	out := []string{head.Render(ansi.Truncate(line, w, "…"))}
	lines := wrap(e.Text, w-4)
	if e.Text == "" {
		lines = nil
	}
	shown := lines
	if !expanded && len(lines) > foldedOutput {
		shown = lines[:foldedOutput]
	}
	for _, l := range shown {
		out = append(out, "    "+ink.Dim.Render(l))
	}
	if len(shown) < len(lines) {
		more := fmt.Sprintf("… %s", plural(len(lines)-len(shown), "more line")) // enter opens the child
		out = append(out, "    "+ink.Dim.Render(ansi.Truncate(more, w-4, "…")))
	}
	return out
}

// wrap splits text into lines of at most w cells, cleaned (format.Wrap),
// and at most format.MaxText bytes of it (bounded).
func wrap(text string, w int) []string {
	return strings.Split(format.Wrap(strings.TrimRight(bounded(text), " \t\n"), w), "\n")
}

// bounded is text drawn up to format.MaxText, a line saying how much
// there was after what was cut.
func bounded(text string) string {
	if shown, note := format.Bounded(text); note != "" {
		return shown + "\n" + note
	}
	return text
}

func prefixed(lines []string, first, rest string, ink styles.Ink) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		out[i] = p + ink.Render(l)
	}
	return out
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
