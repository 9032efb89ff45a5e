package detail

import (
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/styles"
)

// callLines keeps the fitted line of each tool call of one session, with
// everything it was drawn from. An ended call's line does not move with
// the clock or the spinner, so it is drawn again only when the call, the
// name column, the width or the styles change; a running call's also when
// its duration as shown or the spinner's frame moves.
//
// It holds the calls of one window of the body, lines[j] being call
// first+j: the window the pane draws, so a session with thousands of
// calls keeps only those in view.
type callLines struct {
	session string
	first   int
	lines   []callLine
}

type callLine struct {
	key callKey
	s   string
}

// callKey is what toolLine reads of a call.
type callKey struct {
	tool, title, input, err string
	dur                     string // how long it ran, as drawn
	shown                   model.ToolStatus
	nameW, width            int
	styles                  *styles.Styles
	spin                    string // a running call's spinner frame
}

// callDuration is how long a call ran, as the model times it (a
// background task's call until its child ended, one cut short until its
// run ended), or has run so far; "" when its start is not known.
func (m Model) callDuration(id, partID string) string {
	start, end, ok := m.state.CallTimes(id, partID)
	switch {
	case !ok || start <= 0:
		return ""
	case end == 0:
		return format.Duration(m.now - start)
	}
	return format.Duration(end - start)
}

// callLine is the fitted line of s's call i.
func (m Model) callLine(s *model.Session, i, nameW int) string {
	t, shown := s.Tools[i], s.CallStatus(i)
	dur := m.callDuration(s.ID, t.PartID)
	if m.calls == nil {
		return fit(m.toolLine(t, shown, nameW, dur), m.width)
	}
	k := callKey{tool: t.Tool, title: t.Title, input: t.Input, err: t.Error, dur: dur,
		shown: shown, nameW: nameW, width: m.width, styles: m.styles}
	if shown == model.ToolRunning {
		k.spin = m.spin
	}
	c := m.calls
	j := i - c.first
	if c.session != s.ID || j < 0 || j > len(c.lines) || j > 2*max(m.height, 1) {
		// Another session, or a call outside the window and not next
		// to it: the window starts again at this call.
		c.session, c.first, c.lines, j = s.ID, i, c.lines[:0], 0
	}
	if j < len(c.lines) && c.lines[j].key == k {
		return c.lines[j].s
	}
	line := fit(m.toolLine(t, shown, nameW, dur), m.width)
	if j == len(c.lines) {
		c.lines = append(c.lines, callLine{})
	}
	c.lines[j] = callLine{key: k, s: line}
	return line
}

// fitted keeps the fitted form of the other lines the pane drew, by their
// text and width. The header's lines are built anew every frame and come
// out the same most frames; measuring one (ansi.StringWidth, grapheme by
// grapheme) costs a hundred times looking it up.
type fitted struct {
	lines map[fitKey]string
}

type fitKey struct {
	s     string
	width int
}

// maxFitted bounds the lines kept; past it they are forgotten at once.
const maxFitted = 256

// fit is fit(s, width), from the cache when s was fitted before.
func (f *fitted) fit(s string, width int) string {
	if f == nil {
		return fit(s, width)
	}
	k := fitKey{s, width}
	if l, ok := f.lines[k]; ok {
		return l
	}
	if f.lines == nil || len(f.lines) >= maxFitted {
		f.lines = make(map[fitKey]string, maxFitted)
	}
	l := fit(s, width)
	f.lines[k] = l
	return l
}
