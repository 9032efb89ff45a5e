package tree

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
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
	styles   styles.Styles
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
	// A selected row is drawn plain and then styled as a whole: inner
	// styles would reset the selection background halfway along the line.
	sty := o.styles
	if o.selected {
		sty = styles.New(sty.IsDark, true)
		sty.Selected = o.styles.Selected
	}
	paint := func(st lipgloss.Style, text string) string {
		if o.selected {
			return text
		}
		return st.Render(text)
	}

	var left strings.Builder
	left.WriteString(paint(sty.Dim, guides(r)))
	switch {
	case r.HasChildren && r.Expanded:
		left.WriteString(paint(sty.Dim, "▾ "))
	case r.HasChildren:
		left.WriteString(paint(sty.Dim, "▸ "))
	case r.Depth > 0:
		left.WriteString(paint(sty.Dim, "─ ")) // a leaf: the connector runs on to its mark
	default:
		left.WriteString("  ")
	}
	d := st.Display(r.ID)
	mark, markStyle := format.StatusMark(d, o.spin, sty)
	left.WriteString(paint(markStyle, mark))
	left.WriteByte(' ')

	title, agent := format.SplitTitle(s.Title)
	if title == "" {
		title = s.ID
	}
	titleStyle := sty.Title
	if !r.Match && !o.selected {
		titleStyle = sty.Dim // an ancestor shown only to place a filter match
	}
	left.WriteString(paint(titleStyle, format.OneLine(title)))
	if agent != "" {
		left.WriteString(" " + paint(sty.Badge, "@"+agent))
	}

	c := st.Counts(r.ID)
	if r.HasChildren && !r.Expanded && c.RunningBelow > 0 {
		left.WriteString(" " + paint(sty.Busy, fmt.Sprintf("[+%d running]", c.RunningBelow)))
	}
	if d == model.DisplayBusy {
		if t := runningTool(s); t != "" {
			left.WriteString(paint(sty.Dim, " ⟩ "+t))
		}
	}

	right := fmt.Sprintf("%s %6s", toolCount(c), format.Elapsed(st.Elapsed(r.ID, o.now)))
	rw := ansi.StringWidth(right)
	room := o.width - rw - 1
	line := left.String()
	if room < 1 {
		// Too narrow for both: the right columns give way.
		line = ansi.Truncate(line, o.width, "…")
		right = ""
	} else {
		line = ansi.Truncate(line, room, "…")
	}
	pad := o.width - ansi.StringWidth(line) - ansi.StringWidth(right)
	line += strings.Repeat(" ", max(pad, 0)) + paint(sty.Dim, right)
	if o.selected {
		if o.focused {
			return o.styles.Selected.Render(line)
		}
		return o.styles.Focused.Render(line)
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
