// Package timeline is the timeline room: the selected subtree as a Gantt
// chart, one bar per session over its runs (model.Run: the idle time
// between two is left blank; the last goes up to now while it runs),
// coloured by how it ended, the critical path (the child that held each
// parent up) marked ◆, and a scale in seconds or minutes fitted to the
// width. The root hands it the spans (timeline.Spans over its model)
// and the time on every frame; it never talks to the server.
package timeline

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/styles"
)

// Close asks the root to leave the room.
type Close struct{}

// Model is the timeline room.
type Model struct {
	rootID        string
	st            *styles.Styles
	keys          KeyMap
	spans         []Span
	now           int64
	scroll        int
	width, height int
}

// New opens the timeline of the subtree rooted at id.
func New(id string, st *styles.Styles) Model {
	return Model{rootID: id, st: st, keys: DefaultKeyMap()}
}

// RootID is the subtree's root.
func (m Model) RootID() string { return m.rootID }

// Keys is the room's key map.
func (m Model) Keys() KeyMap { return m.keys }

// SetSize sets the room's size in cells.
func (m *Model) SetSize(w, h int) { m.width, m.height = w, h }

// SetData gives the subtree's spans and the current time (Unix ms).
func (m *Model) SetData(spans []Span, nowMS int64) { m.spans, m.now = spans, nowMS }

// Update handles keys.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	switch {
	case key.Matches(k, m.keys.Close):
		return m, func() tea.Msg { return Close{} }
	case key.Matches(k, m.keys.Down):
		m.scroll = min(m.scroll+1, max(len(m.spans)-1, 0))
	case key.Matches(k, m.keys.Up):
		m.scroll = max(m.scroll-1, 0)
	}
	return m, nil
}

// labelWidth is the width of the title column.
func (m Model) labelWidth() int { return min(max(m.width/3, 12), 40) }

// View draws the header, one row per session and the scale.
func (m Model) View() string {
	ink := m.st.Ink
	lw := m.labelWidth()
	cw := max(m.width-lw-2, 1)
	chart := Layout(m.spans, m.now, cw)
	title := ""
	if len(m.spans) > 0 {
		title = format.OneLine(m.spans[0].Title)
	}
	lines := []string{ansi.Truncate(ink.App.Render("timeline")+"  "+ink.Title.Render(title)+"  "+
		ink.Dim.Render("◆ critical path: the child each parent waited on longest"), m.width, "…")}
	rows := max(m.height-2, 1)
	start := min(m.scroll, max(len(chart.Bars)-rows, 0))
	for _, b := range chart.Bars[start:min(start+rows, len(chart.Bars))] {
		lines = append(lines, m.row(b, lw, cw))
	}
	for len(lines) < m.height-1 {
		lines = append(lines, "")
	}
	lines = append(lines, strings.Repeat(" ", lw+2)+ink.Dim.Render(scale(chart, cw)))
	return strings.Join(lines[:min(len(lines), max(m.height, 1))], "\n")
}

func (m Model) row(b Bar, lw, cw int) string {
	ink := m.st.Ink
	mark := " "
	if b.Critical {
		mark = ink.Focused.Render("◆")
	}
	title, agent := format.SplitTitle(b.Title)
	if title == "" {
		title = b.ID
	}
	if agent != "" {
		title += " @" + agent
	}
	label := ansi.Truncate(strings.Repeat("  ", b.Depth)+format.OneLine(title), lw, "…")
	label += strings.Repeat(" ", lw-ansi.StringWidth(label))
	return mark + label + " " + m.bar(b, cw)
}

// bar draws a bar's runs on cw columns, the idle time between them blank.
func (m Model) bar(b Bar, cw int) string {
	if b.Start == 0 {
		return strings.Repeat(" ", cw)
	}
	fill, style := barStyle(m.st.Ink, b.Kind)
	var out strings.Builder
	at := 0
	for _, c := range b.Cols {
		from := max(c[0], at)
		if c[1] <= from {
			continue
		}
		out.WriteString(strings.Repeat(" ", from-at))
		out.WriteString(style.Render(strings.Repeat(fill, c[1]-from)))
		at = c[1]
	}
	out.WriteString(strings.Repeat(" ", cw-at))
	return out.String()
}

// barStyle is the fill and colour of an end state; the fills differ too,
// so the chart reads under NO_COLOR.
func barStyle(ink styles.Inks, k model.Kind) (string, styles.Ink) {
	switch {
	case k.Live():
		return "▓", ink.Busy
	case k == model.KindComplete:
		return "█", ink.Done
	case k == model.KindAborted:
		return "▒", ink.Aborted
	case k == model.KindInterrupted:
		return "░", ink.Interrupted
	case k == model.KindDenied:
		return "×", ink.Denied
	case k == model.KindFailed:
		return "×", ink.Failed
	}
	return "·", ink.Dim
}

// scale is the tick labels laid on cw columns.
func scale(c Chart, cw int) string {
	line := []rune(strings.Repeat(" ", cw+8))
	last := -1
	for _, t := range c.Ticks {
		if t.Col <= last || t.Col >= cw {
			continue
		}
		copy(line[t.Col:], []rune("|"+t.Label))
		last = t.Col + len(t.Label) + 1
	}
	return strings.TrimRight(string(line[:cw]), " ")
}
