package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/dialog"
	"github.com/octop-dev/octop/ui/footer"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/header"
	"github.com/octop-dev/octop/ui/tree"
)

// headerHeight is the header's two lines: where, and what is selected.
const headerHeight = header.Height

// screenAreas is where each part of the screen goes at the current size.
type screenAreas struct {
	tree, detail format.Rect
	wide         bool
	footer       int // footer height
}

// areas lays the screen out: side by side from wideLayout columns, the
// detail under the tree below that.
func (m Model) areas() screenAreas {
	footer := max(m.footerH, 1)
	body := max(m.height-headerHeight-footer, 0)
	a := screenAreas{footer: footer, wide: m.width >= wideLayout}
	if a.wide {
		tw := m.width * 11 / 20
		a.tree = format.Rect{Y: headerHeight, W: tw, H: body}
		a.detail = format.Rect{X: tw + 1, Y: headerHeight, W: m.width - tw - 1, H: body}
		return a
	}
	th := max(body/2, min(body, 3))
	a.tree = format.Rect{Y: headerHeight, W: m.width, H: th}
	dh := max(body-th-1, 0) // one line for the rule between them
	a.detail = format.Rect{Y: headerHeight + th + 1, W: m.width, H: dh}
	return a
}

// layout sizes the panes after the window or the footer changed.
func (m *Model) layout() {
	m.help.SetWidth(m.width)
	m.filter.SetWidth(max(m.width-2, 1))
	m.helpView = m.renderHelp()
	m.footerH = lipgloss.Height(m.helpView)
	a := m.areas()
	m.tree.SetSize(a.tree.W, a.tree.H)
	m.detail.SetSize(a.detail.W, a.detail.H)
}

// View draws the whole screen. It reads what Update prepared and renders
// only what is visible; it changes nothing.
func (m Model) View() tea.View {
	v := m.viewFields()
	v.SetContent(m.render())
	return v
}

// ViewLines is View, its content as the screen's lines, each exactly the
// terminal's width, and v's Content empty: octop's own renderer compares
// and writes lines, and a line that is the same string as the last
// frame's costs it nothing, where a whole frame built anew would cost
// every line's bytes, twice (built, then compared).
func (m Model) ViewLines() (lines []string, v tea.View) {
	if m.dialog != nil {
		return strings.Split(m.render(), "\n"), m.viewFields()
	}
	return m.screenLines(), m.viewFields()
}

// viewFields are View's but its content.
func (m Model) viewFields() tea.View {
	var v tea.View
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "octop"
	if m.opts.ServerURL != "" && !m.opts.Demo {
		v.WindowTitle = "octop — " + format.OneLine(m.opts.ServerURL)
	}
	return v
}

// render is View's content: the screen as one string, every line exactly
// the terminal's width.
func (m Model) render() string {
	screen := strings.Join(m.screenLines(), "\n")
	if m.dialog != nil {
		screen = dialog.Overlay(screen, m.dialog.View(m.width, m.height), m.width, m.height, m.styles.NoColor)
	}
	return screen
}

// screenLines is the screen without a dialog over it, a line per row.
// The header's lines and the panes' are exactly their width already: no
// second measuring pass here, it would cost as much as drawing them. A
// row of the wide layout joins the two panes' lines, and is the same
// string as the last frame's when they are (m.rows).
func (m Model) screenLines() []string {
	if m.width <= 0 || m.height <= 0 {
		return nil
	}
	a := m.areas()
	out := make([]string, 0, m.height)
	line := func(l string) {
		if len(out) < m.height {
			out = append(out, l)
		}
	}
	for _, l := range m.headerLines() {
		line(l)
	}
	treeLines := m.tree.LinesOr(tree.Empty{Demo: m.opts.Demo, ConnKnown: m.connKnown, Conn: m.conn,
		ServerURL: m.opts.ServerURL})
	detailLines := m.detail.Lines()
	if a.wide {
		sep := m.styles.Ink.Border.Render("│")
		for i := 0; i < a.tree.H; i++ {
			line(m.rows.Join(i, m.rows.LineOf(treeLines, i, a.tree.W), sep, m.rows.LineOf(detailLines, i, a.detail.W)))
		}
	} else {
		for i := 0; i < a.tree.H; i++ {
			line(m.rows.LineOf(treeLines, i, a.tree.W))
		}
		if a.detail.H > 0 || a.tree.H > 0 {
			line(m.rule())
		}
		for i := 0; i < a.detail.H; i++ {
			line(m.rows.LineOf(detailLines, i, a.detail.W))
		}
	}
	footer := m.rows.Split(m.footer())
	for i := range a.footer {
		line(m.rows.LineOf(footer, i, m.width))
	}
	return out
}

// rule separates tree and detail in the narrow layout; it names the pane
// that has the keys.
func (m Model) rule() string {
	name := " detail "
	st := m.styles.Ink.Border
	if m.focus == paneDetail {
		name = " detail (tab: back to tree) "
		st = m.styles.Ink.Focused
	}
	return st.Render(format.Fit("──"+name+strings.Repeat("─", max(m.width-2-format.Width(name), 0)), m.width))
}

// headerLines is the two header lines.
func (m Model) headerLines() []string {
	return m.hdr.Lines(m.styles, header.Data{
		Demo: m.opts.Demo, Source: m.opts.Source, Playback: m.playback, ReadOnly: m.opts.ReadOnly != "" && !m.opts.Demo,
		ServerURL: m.opts.ServerURL, Version: m.version,
		Conn: m.conn, ConnKnown: m.connKnown, LostAt: m.lostAt, Follow: m.follow, Sort: m.tree.Sort().String(), SnapErr: m.snapErr, AsksUnread: m.asksUnread, Now: m.now,
		Counts: m.counts, Filtered: m.tree.Filtered(), Loading: m.hist.Left(m.state),
		All: m.state.Tally(), SortNeedsHistory: m.tree.Sort().NeedsHistory(),
		FilterNeedsHistory: model.ParseFilter(m.tree.Filter()).NeedsHistory(),
		Runaway:            m.runawayN, Notice: m.notice,
		Selected: m.state.Session(m.tree.Selected()), Subtree: m.subtree,
	}, m.width)
}

// footer is the filter being typed, a notice, or the help.
func (m Model) footer() string {
	switch {
	case m.filtering:
		return format.Fit(m.filter.View(), m.width)
	case m.flashMsg.Text != "":
		return footer.Notice(m.styles, m.flashMsg, m.width)
	}
	return m.helpView
}

// renderHelp draws the help once per change of what it shows (size, focus,
// filter, ?), not once per frame: layout keeps the result.
func (m Model) renderHelp() string {
	return footer.Help(m.styles, *m.help, m.helpKeys(), m.tree.Filter(), m.width)
}

// helpKeys is what the footer's help lists: the focused pane's keys
// first, then the screen's.
func (m Model) helpKeys() footer.Keys {
	r := m.keys
	k := footer.Keys{
		PaneShort: m.tree.KeyMap().ShortHelp(),
		PaneFull:  m.tree.KeyMap().FullHelp(),
		Short:     []key.Binding{r.Tab, r.Filter},
		View:      append([]key.Binding{r.Tab, r.Filter, r.ClearFilter, r.Follow, r.Sort, r.Help, r.Quit}, m.opts.MoreKeys...),
		Actions: []key.Binding{r.Transcript, r.Diff, r.Timeline, r.Usage, r.Launch, r.LaunchRoot, r.Resume,
			r.ResumeByID, r.Steer, r.Retry, r.Abort, r.AbortTree, r.Undo, r.Redo, r.Open, r.CopyID, r.Inbox},
	}
	if m.focus == paneDetail {
		k.PaneShort, k.PaneFull = m.detail.KeyMap().ShortHelp(), m.detail.KeyMap().FullHelp()
	}
	if m.counts.Waiting > 0 {
		k.Urgent = []key.Binding{r.Inbox}
	}
	if m.tree.Filter() != "" {
		k.Short = append(k.Short, r.ClearFilter)
	}
	// What does not fit the width is cut from the end: help and quit
	// first, then t/d/T, follow and sort (all in the ? screen).
	k.Short = append(k.Short, r.Help, r.Quit, r.LookInside, r.Follow, r.Sort)
	return k
}
