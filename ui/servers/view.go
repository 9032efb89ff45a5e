package servers

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui"
	"github.com/octop-dev/octop/ui/format"
)

// View is the bar over the selected server's screen, whose tree pane
// shows the one tree of every server, and whose detail shows the
// selected session or, on a group line, that server. While the screen
// shows a room (a form, the inbox, a transcript…) it is drawn whole.
func (m Model) View() tea.View {
	owner := m.screens[m.sel]
	v := owner.View()
	if m.width <= 0 {
		return v
	}
	if t, d, room, _ := owner.Panes(); !room {
		v.Content = m.splice(v.Content, t, d)
	}
	v.Content = m.bar() + "\n" + v.Content
	return v
}

// splice draws the one tree over the screen's tree pane t; on a group
// line, that server over its detail pane d and the header's selection
// line above t.
func (m Model) splice(screen string, t, d format.Rect) string {
	lines := strings.Split(screen, "\n")
	// The screen's lines there begin with its own tree's, drawn from the
	// rows' cache: cutting those off costs far less than measuring cells.
	own := strings.Split(m.screens[m.sel].Tree().View(), "\n")
	for i, l := range m.treeLines(t.W, t.H) {
		y := t.Y + i
		if y >= len(lines) {
			break
		}
		if rest, ok := strings.CutPrefix(lines[y], format.LineOf(own, i, t.W)); ok && t.X == 0 {
			lines[y] = l + rest
		} else {
			lines[y] = cutIn(lines[y], t, l, m.width)
		}
	}
	if m.onGroup {
		if y := t.Y - 1; y >= 0 && y < len(lines) {
			lines[y] = m.groupHeader()
		}
		for i, l := range m.groupDetail(d.W, d.H) {
			if y := d.Y + i; y < len(lines) {
				lines[y] = cutIn(lines[y], d, l, m.width)
			}
		}
	}
	return strings.Join(lines, "\n")
}

// cutIn puts l in place of the cells of line that r covers; line and
// the result are width cells.
func cutIn(line string, r format.Rect, l string, width int) string {
	var left, right string
	if r.X > 0 {
		left = ansi.Truncate(line, r.X, "")
	}
	if r.X+r.W < width {
		right = ansi.Cut(line, r.X+r.W, width)
	}
	return left + l + right
}

// treeLines is the one tree's lines in view, h lines of w cells: each
// server's group line, then its rows as its own tree draws them (cached,
// faint while that server is out of reach); only the cursor's row is
// drawn selected.
func (m Model) treeLines(w, h int) []string {
	out := make([]string, 0, h)
	s, r := m.at(m.offset)
	for s >= 0 && s < len(m.screens) && len(out) < h {
		t := m.screens[s].Tree()
		if r < 0 {
			out = append(out, m.groupLine(s, w))
			r = 0
		}
		if m.folded[s] {
			s, r = s+1, -1
			continue
		}
		rows := t.Rows()
		for ; r < len(rows) && len(out) < h; r++ {
			sel := s == m.sel && !m.onGroup && r == t.Cursor()
			out = append(out, t.Line(r, sel)) // exactly w cells, as the tree draws every row
		}
		s, r = s+1, -1
	}
	blank := strings.Repeat(" ", max(w, 0))
	for len(out) < h {
		out = append(out, blank)
	}
	return out
}

// groupLine is server i's line: fold mark, number, host, version and
// connection, and its counts on the right.
func (m Model) groupLine(i, w int) string {
	d := m.screens[i].Summary()
	ink := m.styles.Ink
	sel := i == m.sel && m.onGroup
	paint := func(k interface{ Render(string) string }, s string) string {
		if sel {
			return s // drawn whole in the selection's ink below
		}
		return k.Render(s)
	}
	fold := "▾ "
	if m.folded[i] {
		fold = "▸ "
	}
	left := fold + paint(ink.App, fmt.Sprintf("%d %s", i+1, hostOf(d.ServerURL)))
	if d.Version != "" {
		left += "  " + paint(ink.Dim, "OpenCode "+d.Version)
	}
	switch mark := connMark(d); {
	case m.down(i):
		left += "  " + paint(ink.Disconnected, "✗ down")
	case d.ConnKnown && d.Conn.State == wire.Connected:
		left += "  " + paint(ink.Connected, mark)
	default:
		left += "  " + paint(ink.Dim, mark)
	}
	right := fmt.Sprintf("%d running  %d waiting  %d failed ", d.Counts.Running, d.Counts.Waiting, d.Counts.Failed)
	if d.Counts.Sessions == 0 {
		right = "no sessions "
	}
	line := format.Spread(left, paint(ink.Dim, right), w)
	if sel {
		return ink.Selected.Render(line)
	}
	return line
}

// groupHeader is the header's second line on a group line: the server
// instead of a session, and its counts.
func (m Model) groupHeader() string {
	d := m.screens[m.sel].Summary()
	counts := fmt.Sprintf("all %d: %d running  %d waiting  %d failed", d.Counts.Sessions, d.Counts.Running, d.Counts.Waiting, d.Counts.Failed)
	return format.Spread(fmt.Sprintf("server %d of %d  %s", m.sel+1, len(m.screens), d.ServerURL), counts, m.width)
}

// connMark is a server's connection in a few words, when it is not down
// (then its lines say ✗ down).
func connMark(d ui.Summary) string {
	if d.ConnKnown && d.Conn.State == wire.Connected {
		return "● connected"
	}
	return "○ connecting…"
}

// groupDetail is what the detail pane shows on a server's group line.
func (m Model) groupDetail(w, h int) []string {
	d := m.screens[m.sel].Summary()
	ink := m.styles.Ink
	conn, down := connMark(d), m.down(m.sel)
	if down {
		conn = ink.Disconnected.Render("✗ down")
		if d.Conn.Err != nil {
			conn += ": " + format.OneLine(d.Conn.Err.Error())
		}
	}
	version := "OpenCode version not known yet"
	if d.Version != "" {
		version = "OpenCode " + d.Version
	}
	text := []string{
		ink.Bold.Render(fmt.Sprintf("server %d of %d", m.sel+1, len(m.screens))),
		ink.URL.Render(d.ServerURL),
		version,
		conn,
		fmt.Sprintf("%d %s: %d running  %d waiting  %d failed", d.Counts.Sessions, format.Noun(d.Counts.Sessions, "session", "sessions"), d.Counts.Running, d.Counts.Waiting, d.Counts.Failed),
	}
	if down {
		text = append(text, ink.Dim.Render("its rows show what was last seen, faint, until it is back"))
	}
	text = append(text, "", ink.Dim.Render("←/→ fold  enter toggle  [ ] 1-9 other servers"),
		ink.Dim.Render("N launches a root here, i its inbox, R resumes by task_id"))
	out := make([]string, h)
	for i := range out {
		l := ""
		if i < len(text) {
			l = " " + text[i]
		}
		out[i] = format.Fit(l, w)
	}
	return out
}
