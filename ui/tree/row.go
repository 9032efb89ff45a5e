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
	project  bool // tag roots with their project directory
}

// inks are the row's styles reduced to escape codes (see styles.Ink):
// rows are the hot path of every frame.
type inks struct {
	dim, title, badge, busy, selected, unfocused styles.Ink
	done, failed, retry, waiting                 styles.Ink
}

func newInks(s *styles.Styles) inks {
	return inks{
		dim: styles.InkOf(s.Dim), title: styles.InkOf(s.Title), badge: styles.InkOf(s.Badge),
		busy: styles.InkOf(s.Busy), selected: styles.InkOf(s.Selected), unfocused: styles.InkOf(s.Focused),
		done: styles.InkOf(s.Done), failed: styles.InkOf(s.Failed), retry: styles.InkOf(s.Retry),
		waiting: styles.InkOf(s.Waiting),
	}
}

// mark is a session's one-cell status mark and its ink.
func (k inks) mark(d model.Display, spin string) (string, styles.Ink) {
	switch d {
	case model.DisplayBusy:
		return spin, k.busy
	case model.DisplayRetry:
		return format.MarkRetry, k.retry
	case model.DisplayWaiting:
		return format.MarkWaiting, k.waiting
	case model.DisplayError:
		return format.MarkFailed, k.failed
	}
	return format.MarkDone, k.done
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
	// A selected row is drawn plain and then inked as a whole: inner
	// codes would reset the selection background halfway along the line.
	k := o.inks
	paint := func(ink styles.Ink, text string) string {
		if o.selected {
			return text
		}
		return ink.Render(text)
	}

	var left strings.Builder
	// width counts the cells of the plain text as it is written, so the
	// line is measured without walking its escape codes again.
	width := 0
	put := func(ink styles.Ink, text string, cells int) {
		left.WriteString(paint(ink, text))
		width += cells
	}
	g := guides(r)
	put(k.dim, g, 2*r.Depth)
	switch {
	case r.HasChildren && r.Expanded:
		put(k.dim, "▾ ", 2)
	case r.HasChildren:
		put(k.dim, "▸ ", 2)
	case r.Depth > 0:
		put(k.dim, "─ ", 2) // a leaf: the connector runs on to its mark
	default:
		put(styles.Ink{}, "  ", 2)
	}
	d := st.Display(r.ID)
	mark, markInk := k.mark(d, o.spin)
	put(markInk, mark, ansi.StringWidth(mark))
	put(styles.Ink{}, " ", 1)

	title, agent := format.SplitTitle(s.Title)
	if title == "" {
		title = s.ID
	}
	titleInk := k.title
	if !r.Match {
		titleInk = k.dim // an ancestor shown only to place a filter match
	}
	title = format.OneLine(title)
	put(titleInk, title, ansi.StringWidth(title))
	if agent != "" {
		put(styles.Ink{}, " ", 1)
		put(k.badge, "@"+agent, 1+ansi.StringWidth(agent))
	}

	if o.project && r.Depth == 0 && s.Directory != "" {
		tag := "[" + filepath.Base(s.Directory) + "]"
		put(styles.Ink{}, " ", 1)
		put(k.dim, tag, ansi.StringWidth(tag))
	}

	c := st.Counts(r.ID)
	if r.HasChildren && !r.Expanded && c.RunningBelow > 0 {
		more := fmt.Sprintf("[+%d running]", c.RunningBelow)
		put(styles.Ink{}, " ", 1)
		put(k.busy, more, len(more))
	}
	switch d {
	case model.DisplayBusy:
		if t := runningTool(s); t != "" {
			put(k.dim, " ⟩ "+t, 3+ansi.StringWidth(t))
		}
	case model.DisplayRetry:
		what := fmt.Sprintf(" ⟩ retry %d", s.Attempt)
		if s.RetryAt > o.now {
			what += " in " + format.Elapsed(s.RetryAt-o.now+999) // round up: "in 0s" reads as stuck
		}
		put(k.retry, what, ansi.StringWidth(what))
	case model.DisplayWaiting:
		what := " ⟩ needs you: " + waitingFor(st, r.ID)
		put(k.waiting, what, ansi.StringWidth(what))
	}

	right := fmt.Sprintf("%s %6s", toolCount(c), format.Elapsed(st.Elapsed(r.ID, o.now)))
	rw := len(right) // digits, letters and spaces only
	room := o.width - rw - 1
	line := left.String()
	if room < 1 {
		// Too narrow for both: the right columns give way.
		room, right, rw = o.width, "", 0
	}
	if width > room {
		line = ansi.Truncate(line, room, "…")
		width = ansi.StringWidth(line)
	}
	line += strings.Repeat(" ", max(o.width-width-rw, 0)) + paint(k.dim, right)
	switch {
	case o.selected && o.focused:
		return k.selected.Render(line)
	case o.selected:
		return k.unfocused.Render(line)
	}
	return line
}

// guides draws the tree lines left of a row: a "│ " for every ancestor that
// still has siblings below it, then the row's own "├─" or "└─". Roots sit
// at the margin, unconnected.
func guides(r model.Row) string {
	if r.Depth == 0 {
		return ""
	}
	var b strings.Builder
	for i := 1; i < r.Depth; i++ {
		if i < len(r.Guides) && r.Guides[i] {
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
	return b.String()
}

// runningTool names what a busy session is doing now: its running tool's
// title, else its input digest, else just the tool.
func runningTool(s *model.Session) string {
	for i := len(s.Tools) - 1; i >= 0; i-- {
		t := s.Tools[i]
		if s.ShownToolStatus(i) != model.ToolRunning {
			continue
		}
		what := t.Title
		if what == "" {
			what = t.Input
		}
		if what == "" {
			return t.Tool
		}
		return t.Tool + ": " + format.OneLine(what)
	}
	return ""
}

// waitingFor says what a waiting session asks of the person: the
// permission it wants, or that it has a question.
func waitingFor(st *model.State, id string) string {
	if ps := st.Permissions(id); len(ps) > 0 {
		return "permission " + ps[0].Permission
	}
	if len(st.Questions(id)) > 0 {
		return "a question"
	}
	return "an answer"
}

func toolCount(c model.Counts) string {
	n := c.ToolsRunning + c.ToolsDone + c.ToolsFailed
	switch n {
	case 0:
		return ""
	case 1:
		return "1 tool"
	}
	return fmt.Sprintf("%d tools", n)
}
