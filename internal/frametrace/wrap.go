package frametrace

import (
	"io"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Model wraps the program's model so the trace sees what Update handles
// and what View returns. isEvents says how many stream events a message
// carries (0 for other messages).
func (t *Trace) Model(inner tea.Model, isEvents func(tea.Msg) int) tea.Model {
	return &model{inner: inner, t: t, events: isEvents}
}

type model struct {
	inner  tea.Model
	t      *Trace
	events func(tea.Msg) int
}

func (m *model) Init() tea.Cmd { return m.inner.Init() }

func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if n := m.events(msg); n > 0 {
		m.t.events(n)
	} else if k, ok := msg.(tea.KeyPressMsg); ok {
		m.t.key(k.String())
	}
	var cmd tea.Cmd
	m.inner, cmd = m.inner.Update(msg)
	return m, cmd
}

func (m *model) View() tea.View {
	v := m.inner.View()
	m.t.frame(strings.Split(v.Content, "\n"))
	return v
}

// ViewLines is the inner model's (renderer.Lined), for the trace to see;
// a model without it has its View split.
func (m *model) ViewLines() ([]string, tea.View) {
	var lines []string
	var v tea.View
	if l, ok := m.inner.(interface{ ViewLines() ([]string, tea.View) }); ok {
		lines, v = l.ViewLines()
	} else {
		v = m.inner.View()
		lines, v.Content = strings.Split(v.Content, "\n"), ""
	}
	m.t.frame(lines)
	return lines, v
}

// Output wraps the terminal the program writes to. It keeps the file's
// descriptor visible, so Bubble Tea still sees a terminal.
func (t *Trace) Output(f *os.File) *Output { return &Output{File: f, t: t} }

// Output is a terminal file whose writes the trace times.
type Output struct {
	*os.File
	// To, when set, is written to instead of File (renderer.RawOutput of
	// it), so the trace times the writes octop makes without it.
	To io.Writer
	t  *Trace
}

func (o *Output) Write(p []byte) (int, error) {
	var w io.Writer = o.File
	if o.To != nil {
		w = o.To
	}
	n, err := w.Write(p)
	o.t.written()
	return n, err
}
