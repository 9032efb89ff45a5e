// Package footer draws the screen's last lines: the filter being typed, a
// notice for a few seconds, or the help, which lists the focused pane's
// keys, then the screen's (the full help with ?). It has no keys and no
// state of its own: the root hands it the keys and what to show.
package footer

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

// Keys is what the help lists. It is a help.KeyMap.
type Keys struct {
	// Urgent comes first on the short line: the inbox key while someone
	// waits on you, the one key that then matters.
	Urgent []key.Binding
	// PaneShort and PaneFull are the focused pane's keys.
	PaneShort []key.Binding
	PaneFull  [][]key.Binding
	// Short is the screen's keys on the short line, the least needed
	// last: what does not fit the width is cut from the end.
	Short []key.Binding
	// View and Actions are the screen's keys in the full help.
	View, Actions []key.Binding

	// rows is how many keys the full help puts in a column (7 when 0);
	// Help raises it until every key fits the width.
	rows int
}

// ShortHelp is the one-line footer.
func (k Keys) ShortHelp() []key.Binding {
	out := append(append([]key.Binding{}, k.Urgent...), k.PaneShort...)
	return append(out, k.Short...)
}

// FullHelp is the ? screen, in columns of seven (more when the width
// asks: see Help): the focused pane's keys, the view, then the live.
func (k Keys) FullHelp() [][]key.Binding {
	var all []key.Binding
	for _, col := range k.PaneFull {
		all = append(all, col...)
	}
	all = append(append(all, k.View...), k.Actions...)
	rows := k.rows
	if rows <= 0 {
		rows = 7
	}
	var cols [][]key.Binding
	for len(all) > 0 {
		n := min(rows, len(all))
		cols = append(cols, all[:n])
		all = all[n:]
	}
	return cols
}

// maxRows bounds the full help's columns: a screen too narrow for two
// columns of this many keys gets its help cut at the right edge.
const maxRows = 40

// Help draws the help for width cells, each line exactly that wide. With a
// filter on, the short line starts with it. The full help lists every key:
// its columns grow longer on a narrow screen.
func Help(st *styles.Styles, h help.Model, k Keys, filter string, width int) string {
	if filter != "" && !h.ShowAll {
		prefix := st.Ink.Busy.Render("filter: "+format.OneLine(filter)) + "  "
		h.SetWidth(max(width-format.Width(prefix), 0))
		return format.Fit(prefix+h.View(k), width)
	}
	view := h.View(k)
	if h.ShowAll {
		// A key cut off the right edge is a key nobody learns: the
		// columns grow longer until every one fits.
		for k.rows = 8; strings.Contains(view, h.Ellipsis) && k.rows <= maxRows; k.rows++ {
			view = h.View(k)
		}
	}
	lines := strings.Split(view, "\n")
	for i, l := range lines {
		lines[i] = format.Fit(l, width)
	}
	return strings.Join(lines, "\n")
}

// Notice draws a notice (in the error ink if it is one) on one line.
func Notice(st *styles.Styles, f room.FlashMsg, width int) string {
	ink := st.Ink.Flash
	if f.Error {
		ink = st.Ink.Failed
	}
	return format.Fit(ink.Render(format.OneLine(f.Text)), width)
}
