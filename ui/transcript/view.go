package transcript

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/ui/format"
)

// View draws the header line and the visible entries, height lines.
func (m Model) View() string {
	ink := m.st.Ink
	state := "ended"
	switch {
	case m.running && m.follow:
		state = ink.Busy.Render("● live")
	case m.running:
		state = ink.Dim.Render("paused · G resumes the tail")
	}
	title, agent := format.SplitTitle(m.title)
	title = format.OneLine(title)
	if agent != "" {
		title += " " + ink.Badge.Render("@"+agent)
	}
	head := fmt.Sprintf("%s  %s  %s  %s", ink.App.Render("transcript"), ink.Title.Render(title), ink.Dim.Render(format.OneLine(m.id)), state)
	switch {
	case m.searching:
		head = m.search.View()
	case m.notFound:
		head += "  " + ink.Flash.Render("no match for "+format.OneLine(m.query))
	}
	lines := []string{ansi.Truncate(head, m.width, "…")}
	switch {
	case m.err != nil:
		lines = append(lines, ink.Failed.Render(ansi.Truncate("could not read the messages: "+format.OneLine(m.err.Error()), m.width, "…")))
	case m.live == nil:
		lines = append(lines, ink.Dim.Render("loading…"))
	case len(m.entries) == 0:
		lines = append(lines, ink.Dim.Render("no messages yet"))
	default:
		lines = append(lines, m.body()...)
	}
	for len(lines) < m.height {
		lines = append(lines, "")
	}
	return strings.Join(lines[:min(len(lines), max(m.height, 1))], "\n")
}
