// Package detail is the pane that shows one session in full: its status,
// task_id, parent, last error, live tool calls, todo list and last reply.
package detail

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/styles"
)

// maxReplyLines bounds the last reply shown, so a long answer cannot push
// the tool calls out of sight entirely.
const maxReplyLines = 20

// Model is the detail pane for the selected session.
type Model struct {
	keys   KeyMap
	styles *styles.Styles
	state  *model.State
	id     string

	width, height int
	focused       bool
	now           int64
	spin          string
	// runaway gives the watchdog's marks of a session, one "kind:
	// evidence" line each; nil when no watchdog runs.
	runaway func(id string) []string
	// back is how many lines the body is scrolled up from its end. The body
	// is pinned to its end by default, so the newest tool call shows.
	back int
	// calls keeps the drawn lines of the shown session's ended calls,
	// shared by the pane's copies: an event redraws the calls it touched,
	// not every call in view.
	calls *callLines
	// fits keeps the other lines' fitted form, shared likewise.
	fits *fitted
}

// New returns an empty detail pane.
func New(s *styles.Styles) Model {
	return Model{keys: DefaultKeyMap(), styles: s, state: model.New(), calls: &callLines{}, fits: &fitted{}}
}

// KeyMap returns the pane's keys, for the footer's help.
func (m Model) KeyMap() KeyMap { return m.keys }

// SetStyles swaps the styles.
func (m *Model) SetStyles(s *styles.Styles) { m.styles = s }

// SetSize sets the pane's size in cells.
func (m *Model) SetSize(width, height int) { m.width, m.height = max(width, 0), max(height, 0) }

// SetFocused says whether keys go to this pane.
func (m *Model) SetFocused(f bool) { m.focused = f }

// SetClock sets the time durations count to and the spinner frame.
func (m *Model) SetClock(nowMS int64, spin string) { m.now, m.spin = nowMS, spin }

// SetRunaway sets where the pane reads the watchdog's marks from.
func (m *Model) SetRunaway(f func(id string) []string) { m.runaway = f }

// SetState points the pane at the (new) state.
func (m *Model) SetState(s *model.State) { m.state = s }

// SetSession shows another session; the scroll goes back to the end.
func (m *Model) SetSession(id string) {
	if id != m.id {
		m.back = 0
	}
	m.id = id
}

// ScrollBy scrolls the body n lines down (up when n < 0), as the mouse
// wheel does.
func (m *Model) ScrollBy(n int) { m.back = min(max(m.back-n, 0), m.maxBack()) }

// Update scrolls the pane when it has focus.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	switch {
	case key.Matches(k, m.keys.Up):
		m.back = min(m.back+1, m.maxBack())
	case key.Matches(k, m.keys.Down):
		m.back = max(m.back-1, 0)
	case key.Matches(k, m.keys.Top):
		m.back = m.maxBack()
	case key.Matches(k, m.keys.Bottom):
		m.back = 0
	}
	return m, nil
}

// maxBack is how far the body can scroll up before its first line shows.
func (m Model) maxBack() int {
	s := m.state.Session(m.id)
	if s == nil {
		return 0
	}
	return max(m.body(s).len()-(m.height-len(m.header(s))), 0)
}

// View renders the pane, exactly width × height cells.
func (m Model) View() string { return strings.Join(m.Lines(), "\n") }

// Lines is View's lines, exactly height of them, each the width.
func (m Model) Lines() []string {
	if m.width <= 0 || m.height <= 0 {
		return nil
	}
	s := m.state.Session(m.id)
	var lines []string
	if s == nil {
		lines = []string{fit(m.styles.Ink.Dim.Render("no session selected"), m.width)}
	} else {
		head := m.header(s)
		b := m.body(s)
		room := m.height - len(head)
		if room < 0 {
			head, room = head[:m.height], 0
		}
		from, to := 0, b.len()
		if to > room {
			to -= min(m.back, to-room)
			from = to - room
		}
		// The rule says what the scroll hides, so "tool calls (4)" over
		// three lines never looks like a miscount.
		if hidden := from + b.len() - to; hidden > 0 && room > 0 {
			head[len(head)-1] = m.callsRule(s, from, b.len()-to)
		}
		lines = head
		for i := range lines {
			lines[i] = m.fits.fit(lines[i], m.width)
		}
		// The body's lines come fitted: a call's line from its cache,
		// fitted once when it was drawn, not measured again every frame.
		lines = append(lines, m.lines(b, from, to)...)
	}
	if len(lines) < m.height {
		blank := strings.Repeat(" ", m.width)
		for len(lines) < m.height {
			lines = append(lines, blank)
		}
	}
	return lines[:m.height]
}

// header is the fixed top: what the session is and how it stands.
func (m Model) header(s *model.Session) []string {
	st := m.styles
	title, agent := format.SplitTitle(s.Title)
	if title == "" {
		title = "(untitled)"
	}
	if agent == "" {
		agent = format.OneLine(s.Agent)
	}
	top := st.Ink.Bold.Render(format.OneLine(title))
	if agent != "" {
		top += " " + st.Ink.Badge.Render("@"+agent)
	}
	state := model.StateOf(s)
	status := m.statusLine(s, state)
	lines := []string{top, label(st, "status") + status, label(st, "task_id") + format.OneLine(s.ID)}
	if s.ParentID != "" {
		parent := format.OneLine(s.ParentID)
		if p := m.state.Session(s.ParentID); p != nil && p.Title != "" {
			parent = format.OneLine(p.Title)
		}
		lines = append(lines, label(st, "parent")+parent)
	}
	if of := m.state.RetryOf(s.ID); of != "" {
		retried := format.OneLine(of)
		if o := m.state.Session(of); o != nil {
			mark, ink := format.StateMark(model.StateOf(o).Kind, "", st)
			retried += " " + ink.Render(mark)
		}
		lines = append(lines, label(st, "retries")+retried)
	}
	lines = append(lines, label(st, "tokens")+fmt.Sprintf("%s · %s", format.Tokens(s.Tokens), format.Cost(s.OwnCost())))
	switch {
	case state.Kind == model.KindRetrying && s.Retry().Message != "":
		lines = append(lines, label(st, "retry")+st.Ink.Retry.Render(format.OneLine(s.Retry().Message)))
	case state.Kind == model.KindNotLoaded:
		lines = append(lines, label(st, "reason")+st.Ink.Dim.Render("reading its history…"))
	case !state.Kind.Live() && state.Detail != "" && state.Kind != model.KindIdle:
		_, ink := format.StateMark(state.Kind, "", st)
		lines = append(lines, label(st, "reason")+ink.Render(format.OneLine(state.Detail)))
	}
	if m.runaway != nil {
		for _, r := range m.runaway(s.ID) {
			lines = append(lines, label(st, "runaway")+st.Ink.Failed.Render("⚠ "+format.OneLine(r)))
		}
	}
	if r := s.Reverted(); r != nil {
		what, how := undoneLines(s.ID, r)
		lines = append(lines, label(st, "undone")+st.Ink.Retry.Render(what), label(st, "")+st.Ink.Retry.Render(how))
	}
	for _, p := range m.state.Permissions(s.ID) {
		lines = append(lines, label(st, "waiting")+st.Ink.Waiting.Render("permission "+format.OneLine(p.Permission+" "+strings.Join(p.Patterns, " "))))
	}
	for _, q := range m.state.Questions(s.ID) {
		what := "question"
		if len(q.Questions) > 0 {
			what += " " + format.OneLine(q.Questions[0].Question)
		}
		lines = append(lines, label(st, "waiting")+st.Ink.Waiting.Render(what))
	}
	// The section rule stays put above the scrolling calls, so the count
	// is always in sight.
	return append(lines, m.callsRule(s, 0, 0))
}

// statusLine is the detail's status: the state's mark and word, how long
// it ran, a retry's attempt and countdown, and its children, how many run
// and how many wait on the person below it.
func (m Model) statusLine(s *model.Session, state model.SessionState) string {
	st := m.styles
	mark, markStyle := format.StateMark(state.Kind, m.spin, st)
	c := m.state.Counts(s.ID)
	elapsed := "…"
	if state.Kind != model.KindNotLoaded {
		elapsed = format.Elapsed(m.state.Elapsed(s.ID, m.now))
	}
	status := markStyle.Render(mark+" "+format.StateWord(state)) + st.Ink.Dim.Render(" · "+elapsed)
	if state.Kind == model.KindRetrying {
		status += st.Ink.Retry.Render(fmt.Sprintf(" · attempt %d", s.Retry().Attempt))
		if at := s.Retry().At; at > m.now {
			status += st.Ink.Retry.Render(" · next in " + format.Elapsed(at-m.now))
		}
	}
	if c.Children > 0 {
		status += st.Ink.Dim.Render(" · " + format.Plural(c.Children, "child", "children"))
		if c.RunningBelow > 0 {
			status += st.Ink.Busy.Render(fmt.Sprintf(", %d running below", c.RunningBelow))
		}
		if c.WaitingBelow > 0 {
			// Blocked on the person, not working: never "running".
			status += st.Ink.Waiting.Render(fmt.Sprintf(", %d waiting below", c.WaitingBelow))
		}
	}
	return status
}

// callsRule heads the tool calls with their count, and how many lines
// the scroll hides above and below.
func (m Model) callsRule(s *model.Session, above, below int) string {
	title := fmt.Sprintf("tool calls (%d)", len(s.Tools))
	if m.unread(s) {
		title = "tool calls (…)" // not read yet: no count is known
	}
	if above > 0 {
		title += fmt.Sprintf(" ↑%d more", above)
	}
	if below > 0 {
		title += fmt.Sprintf(" ↓%d more", below)
	}
	return rule(m.styles, title, m.width)
}

// unread says the session's history is not read yet, or was let go of
// once read (model.State.Sealed: it is read again now it is selected), so
// nothing is known of its calls.
func (m Model) unread(s *model.Session) bool {
	return len(s.Tools) == 0 && (!m.state.HasHistory(s.ID) || m.state.Sealed(s.ID))
}

// body is the scrolling part: the tool calls, then the todo list when the
// session keeps one, then the last reply once idle. The calls' lines are
// drawn on demand, so a session with thousands of calls costs only the
// lines in view.
type body struct {
	s     *model.Session
	nameW int
	tail  []string // the todo and reply sections, rules included
}

func (m Model) body(s *model.Session) body {
	b := body{s: s, nameW: 4}
	for _, t := range s.Tools {
		b.nameW = max(b.nameW, min(len(t.Tool), 12))
	}
	b.tail = m.todoLines(s)
	if model.StateOf(s).Kind != model.KindRunning && strings.TrimSpace(s.LastText()) != "" {
		reply := strings.Split(format.Text(strings.TrimSpace(s.LastText())), "\n")
		if len(reply) > maxReplyLines {
			reply = append(reply[:maxReplyLines-1], "…")
		}
		b.tail = append(b.tail, rule(m.styles, "last reply", m.width))
		b.tail = append(b.tail, reply...)
	}
	return b
}

// calls is how many lines the tool calls take ("none yet" is one).
func (b body) calls() int { return max(len(b.s.Tools), 1) }

func (b body) len() int { return b.calls() + len(b.tail) }

// lines draws body lines [from, to), each fitted to the width.
func (m Model) lines(b body, from, to int) []string {
	out := make([]string, 0, to-from)
	for i := from; i < to; i++ {
		switch {
		case i >= b.calls():
			out = append(out, m.fits.fit(b.tail[i-b.calls()], m.width))
		case len(b.s.Tools) == 0 && m.unread(b.s):
			out = append(out, fit(m.styles.Ink.Dim.Render("not read yet"), m.width))
		case len(b.s.Tools) == 0:
			out = append(out, fit(m.styles.Ink.Dim.Render("none yet"), m.width))
		default:
			out = append(out, m.callLine(b.s, i, b.nameW))
		}
	}
	return out
}

// toolLine is one tool call: mark, tool, what it did, and how long it took
// (dur). The running call is drawn highlighted across the whole line.
func (m Model) toolLine(t model.ToolCall, shown model.ToolStatus, nameW int, dur string) string {
	st := m.styles
	running := shown == model.ToolRunning
	mark, markStyle := format.ToolMark(shown, m.spin, st)
	what := t.Title
	if what == "" {
		what = t.Input
	}
	what = format.OneLine(what)
	switch {
	case shown == model.ToolError && t.Error != "":
		what += " — " + format.OneLine(t.Error)
	case shown == model.ToolInterrupted, shown == model.ToolAborted:
		what += " — " + shown.String()
	}
	if t.Background {
		what += " (background)"
	}
	name := ansi.Truncate(format.OneLine(t.Tool), nameW, "…")
	name += strings.Repeat(" ", nameW-format.Width(name))
	room := m.width - 2 - nameW - 1 - len(dur) - 1
	what = ansi.Truncate(what, max(room, 0), "…")
	pad := max(room-format.Width(what), 0)
	if running {
		plain := mark + " " + name + " " + what + strings.Repeat(" ", pad) + " " + dur
		return st.Ink.Highlight.Render(fit(plain, m.width))
	}
	var whatInk styles.Ink
	if shown == model.ToolError {
		whatInk = st.Ink.Failed
	}
	return markStyle.Render(mark) + " " + st.Ink.Label.Render(name) + " " + whatInk.Render(what) +
		strings.Repeat(" ", pad) + " " + st.Ink.Dim.Render(dur)
}

func label(st *styles.Styles, name string) string {
	return st.Ink.Label.Render(fmt.Sprintf("%-8s", name))
}

// rule is a section heading drawn as a line across the pane.
func rule(st *styles.Styles, title string, width int) string {
	head := "── " + title + " "
	return st.Ink.Border.Render(head + strings.Repeat("─", max(width-format.Width(head), 0)))
}

// fit cuts a line to width with an ellipsis, or pads it, so every line of
// the pane is exactly width cells. It measures the line once, and again
// only when it was cut.
func fit(s string, width int) string {
	w := format.Width(s)
	if w == width {
		return s
	}
	if w > width {
		s = ansi.Truncate(s, width, "…")
		w = format.Width(s)
	}
	return s + strings.Repeat(" ", max(width-w, 0))
}

// undoneLines say what is undone in a session (the files of the
// server's diff, and from which message) and how to bring it back.
func undoneLines(id string, r *model.Reverted) (what, how string) {
	files := format.Plural(len(r.Files), "file", "files")
	switch len(r.Files) {
	case 0:
		files = "no file of its own" // its descendants' undos restored them first
	case 1:
		files = format.OneLine(r.Files[0].Path)
	}
	return fmt.Sprintf("%s %s · from %s on", format.MarkUndone, files, format.OneLine(r.MessageID)),
		"U or octop redo " + id + " brings it back"
}
