package tree

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/styles"
)

type rowOpts struct {
	width    int
	now      int64
	spin     string
	selected bool
	focused  bool
	inks     inks
	project  bool   // tag roots with their project directory
	runaway  string // the watchdog's marks: "loop", "loop stall"
	stale    bool   // the server is out of reach: the whole line is faint
}

// renderRow draws one tree line, exactly o.width cells wide:
//
//	├─▾ ⠋ fix the parser @general  [+2 running] ⟩ bash: go test   4 tools  1m05s
//
// The left part is cut with an ellipsis when it does not fit; the right
// columns (tool count, elapsed) always stay, because they are what a person
// scans down.
func renderRow(st *model.State, r model.Row, o rowOpts) string {
	s := st.Session(r.ID)
	if s == nil {
		return strings.Repeat(" ", o.width)
	}
	kind := model.StateOf(s).Kind
	c := st.Counts(r.ID)
	l := line{o: o}
	l.shape(r)
	l.name(s, r, kind, st.RetryOf(r.ID), st.Undecodable(r.ID))
	if r.HasChildren && !r.Expanded && c.RunningBelow > 0 {
		more := fmt.Sprintf("[+%d running]", c.RunningBelow)
		l.put(styles.Ink{}, " ", 1)
		l.put(o.inks.busy, more, len(more))
	}
	if r.HasChildren && !r.Expanded && c.WaitingBelow > 0 {
		more := fmt.Sprintf("[+%d waiting]", c.WaitingBelow)
		l.put(styles.Ink{}, " ", 1)
		l.put(o.inks.waiting, more, len(more))
	}
	l.activity(st, s, kind)
	return l.finish(st, s, r.ID, kind, c)
}

// line is a row being written: its left part, and that part's width in
// cells counted as it is written, so the line is measured without walking
// its escape codes again.
type line struct {
	o     rowOpts
	left  strings.Builder
	width int
}

// paint inks text, unless the row is selected: a selected row is drawn
// plain and then inked as a whole, since inner codes would reset the
// selection background halfway along the line.
func (l *line) paint(ink styles.Ink, text string) string {
	if l.o.selected || l.o.stale {
		return text
	}
	return ink.Render(text)
}

// put writes text, cells wide, to the left part.
func (l *line) put(ink styles.Ink, text string, cells int) {
	l.left.WriteString(l.paint(ink, text))
	l.width += cells
}

// shape writes the tree guides and the fold mark.
func (l *line) shape(r model.Row) {
	dim := l.o.inks.dim
	g, cells := guides(r)
	l.put(dim, g, cells)
	switch {
	case r.HasChildren && r.Expanded:
		l.put(dim, "▾ ", 2)
	case r.HasChildren:
		l.put(dim, "▸ ", 2)
	case r.Depth > 0:
		l.put(dim, "─ ", 2) // a leaf: the connector runs on to its mark
	default:
		l.put(styles.Ink{}, "  ", 2)
	}
}

// undecodableMark stands before the title of a session whose listing did
// not decode (model.State.Undecodable), with what was wrong in its place.
const undecodableMark = "�"

// name writes the state mark, the title, the agent, the session it
// retries (retryOf, whose mark the title holds: shown once, after the
// agent) and, on a root of a grouped tree, its project; for a session
// whose listing did not decode, in place of its title and agent,
// undecodableMark and why.
func (l *line) name(s *model.Session, r model.Row, kind model.Kind, retryOf, undecodable string) {
	k := l.o.inks
	mark, markInk := k.mark(kind, l.o.spin)
	l.put(markInk, mark, format.Width(mark))
	l.put(styles.Ink{}, " ", 1)
	title, agent := format.SplitTitle(s.Title)
	if retryOf != "" {
		title, _ = model.SplitRetry(title)
	}
	if title == "" {
		title = s.ID
	}
	titleInk := k.title
	if undecodable != "" {
		title, agent, titleInk = undecodableMark+" undecodable session "+s.ID+": "+undecodable, "", k.failed
	}
	if !r.Match {
		titleInk = k.dim // an ancestor shown only to place a filter match
	}
	title = format.OneLine(title)
	l.put(titleInk, title, format.Width(title))
	if agent != "" {
		l.put(styles.Ink{}, " ", 1)
		l.put(k.badge, "@"+agent, 1+format.Width(agent))
	}
	if retryOf != "" {
		of := "↺ retry of " + format.OneLine(retryOf)
		l.put(styles.Ink{}, " ", 1)
		l.put(k.dim, of, format.Width(of))
	}
	if s.Reverted() != nil {
		l.put(styles.Ink{}, " ", 1)
		l.put(k.retry, format.MarkUndone+" undone", 8)
	}
	if l.o.runaway != "" {
		flag := "⚠ " + l.o.runaway
		l.put(styles.Ink{}, " ", 1)
		l.put(k.failed, flag, format.Width(flag))
	}
	if l.o.project && r.Depth == 0 && s.Directory != "" {
		tag := "[" + format.OneLine(filepath.Base(s.Directory)) + "]"
		l.put(styles.Ink{}, " ", 1)
		l.put(k.dim, tag, format.Width(tag))
	}
}

// activity writes what the session does now: its call, its retry, or
// what it waits for.
func (l *line) activity(st *model.State, s *model.Session, kind model.Kind) {
	k := l.o.inks
	switch kind {
	case model.KindRunning:
		if what, live := doing(s); what != "" {
			ink := k.title
			if !live {
				ink = k.dim // the last call, held between two calls
			}
			l.put(ink, " ⟩ "+what, 3+format.Width(what))
		}
	case model.KindRetrying:
		r := s.Retry()
		what := fmt.Sprintf(" ⟩ retry %d", r.Attempt)
		if r.At > l.o.now {
			what += " in " + format.Elapsed(r.At-l.o.now+999) // round up: "in 0s" reads as stuck
		}
		l.put(k.retry, what, format.Width(what))
	case model.KindWaiting:
		what := " ⟩ needs you: " + waitingFor(st, s.ID)
		l.put(k.waiting, what, format.Width(what))
	case model.KindBackground:
		what := " ⟩ " + model.StateOf(s).Detail
		l.put(k.busy, what, format.Width(what))
	}
}

// finish adds the right columns (the quiet mark, the tool count, the
// elapsed time) at the right edge, cutting the left part to make room,
// and inks a selected row whole.
func (l *line) finish(st *model.State, s *model.Session, id string, kind model.Kind, c model.Counts) string {
	o, k := l.o, l.o.inks
	elapsed := format.Elapsed(st.Elapsed(id, o.now))
	if kind == model.KindNotLoaded {
		elapsed = "…" // not read yet: no fake "0s"
	}
	right := fmt.Sprintf("%s %6s", toolCount(c), elapsed)
	var q string
	if kind == model.KindRunning && c.RunningBelow == 0 && c.WaitingBelow == 0 {
		q = quiet(s, o.now)
	}
	rw := format.Width(right) + format.Width(q)
	room := o.width - rw - 1
	text, width := l.left.String(), l.width
	if room < 1 {
		// Too narrow for both: the right columns give way.
		room, right, q, rw = o.width, "", "", 0
	}
	if width > room {
		text = ansi.Truncate(text, room, "…")
		width = format.Width(text)
	}
	if q != "" {
		q = l.paint(k.retry, q)
	}
	text += strings.Repeat(" ", max(o.width-width-rw, 0)) + q + l.paint(k.dim, right)
	switch {
	case o.selected && o.focused:
		return k.selected.Render(text)
	case o.selected:
		return k.unfocused.Render(text)
	case o.stale:
		return k.stale.Render(text)
	}
	return text
}

// guides draws the tree lines left of a row, and says how many cells
// they take: a "│ " for every ancestor that still has siblings below it,
// then the row's own "├─" or "└─". Roots sit at the margin, unconnected.
// A row deeper than the guides it keeps (model.MaxGuides) starts with
// "… " in place of the levels above them.
func guides(r model.Row) (string, int) {
	if r.Depth == 0 {
		return "", 0
	}
	var b strings.Builder
	first := int(r.Depth) - len(r.Guides) // the depth Guides[0] is for
	from := 1
	if first > from {
		b.WriteString("… ")
		from = first
	}
	for i := from; i < int(r.Depth); i++ {
		if i >= first && r.Guides[i-first] {
			b.WriteString("│ ")
		} else {
			b.WriteString("  ")
		}
	}
	if r.Last {
		b.WriteString("└─")
	} else {
		b.WriteString("├─")
	}
	return b.String(), format.Width(b.String())
}
