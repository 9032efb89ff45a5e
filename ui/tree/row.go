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
}

// inks are the row's styles reduced to escape codes (see styles.Ink):
// rows are the hot path of every frame.
type inks struct {
	dim, title, badge, busy, selected, unfocused styles.Ink
	done, failed, retry, waiting                 styles.Ink
	aborted, interrupted, denied                 styles.Ink
}

func newInks(s *styles.Styles) inks {
	return inks{
		dim: styles.InkOf(s.Dim), title: styles.InkOf(s.Title), badge: styles.InkOf(s.Badge),
		busy: styles.InkOf(s.Busy), selected: styles.InkOf(s.Selected), unfocused: styles.InkOf(s.Focused),
		done: styles.InkOf(s.Done), failed: styles.InkOf(s.Failed), retry: styles.InkOf(s.Retry),
		waiting: styles.InkOf(s.Waiting), aborted: styles.InkOf(s.Aborted),
		interrupted: styles.InkOf(s.Interrupted), denied: styles.InkOf(s.Denied),
	}
}

// mark is a session's one-cell state mark and its ink (the same marks as
// format.StateMark, with the row's own inks).
func (k inks) mark(kind model.Kind, spin string) (string, styles.Ink) {
	switch kind {
	case model.KindRunning:
		return spin, k.busy
	case model.KindRetrying:
		return format.MarkRetry, k.retry
	case model.KindWaiting:
		return format.MarkWaiting, k.waiting
	case model.KindFailed:
		return format.MarkFailed, k.failed
	case model.KindAborted:
		return format.MarkAborted, k.aborted
	case model.KindInterrupted:
		return format.MarkInterrupted, k.interrupted
	case model.KindDenied:
		return format.MarkDenied, k.denied
	case model.KindComplete:
		return format.MarkDone, k.done
	case model.KindIdle:
		return format.MarkIdle, k.dim
	}
	return format.MarkNotLoaded, k.dim
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
	state := model.StateOf(s)
	mark, markInk := k.mark(state.Kind, o.spin)
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

	if o.runaway != "" {
		flag := "⚠ " + o.runaway
		put(styles.Ink{}, " ", 1)
		put(k.failed, flag, ansi.StringWidth(flag))
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
	switch state.Kind {
	case model.KindRunning:
		if what, live := doing(s); what != "" {
			ink := k.title
			if !live {
				ink = k.dim // the last call, held between two calls
			}
			put(ink, " ⟩ "+what, 3+ansi.StringWidth(what))
		}
	case model.KindRetrying:
		what := fmt.Sprintf(" ⟩ retry %d", s.Attempt)
		if s.RetryAt > o.now {
			what += " in " + format.Elapsed(s.RetryAt-o.now+999) // round up: "in 0s" reads as stuck
		}
		put(k.retry, what, ansi.StringWidth(what))
	case model.KindWaiting:
		what := " ⟩ needs you: " + waitingFor(st, r.ID)
		put(k.waiting, what, ansi.StringWidth(what))
	}

	elapsed := format.Elapsed(st.Elapsed(r.ID, o.now))
	if state.Kind == model.KindNotLoaded {
		elapsed = "…" // not read yet: no fake "0s"
	}
	right := fmt.Sprintf("%s %6s", toolCount(c), elapsed)
	rw := ansi.StringWidth(right)
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

// doing says what a running session does now: its running call's title
// (else input digest, else tool), "thinking" or "writing" while the model
// streams, else the last call it made. live is false for that last call,
// which is only held so the line does not blink away between two calls.
func doing(s *model.Session) (what string, live bool) {
	for i := len(s.Tools) - 1; i >= 0; i-- {
		if s.ShownToolStatus(i) == model.ToolRunning {
			return callLine(s.Tools[i]), true
		}
	}
	switch s.Streaming {
	case model.StreamReasoning:
		return "thinking", true
	case model.StreamText:
		return "writing", true
	}
	if n := len(s.Tools); n > 0 {
		return callLine(s.Tools[n-1]), false
	}
	return "", false
}

func callLine(t model.ToolCall) string {
	what := t.Title
	if what == "" {
		what = t.Input
	}
	if what == "" {
		return t.Tool
	}
	return t.Tool + ": " + format.OneLine(what)
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
