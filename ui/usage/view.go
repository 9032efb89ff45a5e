package usage

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/usage"
	"github.com/octop-dev/octop/ui/format"
)

// nameWidth bounds the first column (a root's title can be long).
const nameWidth = 32

// View draws the whole screen, the room's keys on the last line.
func (r *Room) View(w, h int) string {
	w, h = max(w, 1), max(h, 1)
	ink := r.st.Ink
	title := format.OneLine(r.title)
	if title == "" {
		title = format.OneLine(r.id)
	}
	lines := []string{ink.App.Render("$ spend") + "  " + ink.Title.Render(title) + "  " +
		ink.Dim.Render("by "+string(r.l.By)+" (b: "+string(usage.Bys[(r.by+1)%len(usage.Bys)])+")"), ""}
	table := r.table(w)
	head, rows, total := table[0], table[1:len(table)-1], table[len(table)-1]
	lines = append(lines, ink.Label.Render(head))
	foot := r.foot(w)
	room := max(h-len(lines)-len(foot)-2, 1) // the total and the key line
	start := min(r.scroll, max(len(rows)-room, 0))
	lines = append(lines, rows[start:min(start+room, len(rows))]...)
	lines = append(lines, ink.Bold.Render(total))
	lines = append(lines, foot...)
	for len(lines) < h-1 {
		lines = append(lines, "")
	}
	lines = append(lines[:min(len(lines), h-1)], r.st.KeyLine(w, r.keys.ShortHelp()))
	for i, l := range lines {
		lines[i] = format.Fit(l, w)
	}
	return strings.Join(lines, "\n")
}

// dropOrder is the columns (by index, the name first) left out, in turn,
// while the table is wider than the screen: cache write, reasoning,
// sessions, replies, cache read, output. Name, input and cost stay.
var dropOrder = []int{7, 5, 1, 2, 6, 4}

// table is the head, one line per group and the total, in columns that
// fit w where they can.
func (r *Room) table(w int) []string {
	cells := [][]string{append([]string{strings.ToUpper(string(r.l.By))}, upper(usage.Columns)...)}
	for _, row := range r.l.Rows {
		name := format.OneLine(row.Key)
		if row.Label != "" {
			name += " " + format.OneLine(row.Label)
		}
		cells = append(cells, append([]string{ansi.Truncate(name, nameWidth, "…")}, usage.Cells(row.Figures, format.Tokens)...))
	}
	cells = append(cells, append([]string{"total"}, usage.Cells(r.l.Total, format.Tokens)...))
	widths := make([]int, len(cells[0]))
	for _, c := range cells {
		for i, v := range c {
			widths[i] = max(widths[i], ansi.StringWidth(v))
		}
	}
	shown := make([]bool, len(widths))
	total := -2
	for i := range shown {
		shown[i] = true
		total += widths[i] + 2
	}
	for _, i := range dropOrder {
		if total <= w {
			break
		}
		shown[i] = false
		total -= widths[i] + 2
	}
	out := make([]string, len(cells))
	for j, c := range cells {
		var b strings.Builder
		for i, v := range c {
			pad := strings.Repeat(" ", widths[i]-ansi.StringWidth(v))
			switch {
			case !shown[i]:
			case i == 0:
				b.WriteString(v + pad)
			default:
				b.WriteString("  " + pad + v)
			}
		}
		out[j] = b.String()
	}
	return out
}

// foot is what ended badly, what had no cost, and how the read went,
// wrapped to the width.
func (r *Room) foot(w int) []string {
	ink := r.st.Ink
	lines := []string{""}
	wrap := func(s string, style func(string) string) {
		for _, l := range strings.Split(ansi.Wordwrap(s, w, ""), "\n") {
			lines = append(lines, style(l))
		}
	}
	bad := ink.Dim.Render
	if r.l.Bad().Replies > 0 {
		bad = ink.Failed.Render
	}
	wrap(r.l.BadLine(format.Tokens), bad)
	if a := r.l.AbortedLine(format.Tokens); a != "" {
		wrap(a, ink.Dim.Render)
	}
	if u := r.l.UnpricedLine(); u != "" {
		wrap(u, ink.Waiting.Render)
	}
	switch {
	case r.err != nil:
		wrap("could not read the messages: "+format.OneLine(r.err.Error()), ink.Failed.Render)
	case r.loading:
		wrap(fmt.Sprintf("reading the messages of %s…", format.Plural(len(r.sessions), "session", "sessions")), ink.Dim.Render)
	case r.live:
		wrap(fmt.Sprintf("the subtree runs: read again every %s", RefreshEvery), ink.Dim.Render)
	}
	return lines
}

func upper(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToUpper(s)
	}
	return out
}
