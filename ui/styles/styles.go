// Package styles holds octop's one set of lipgloss styles, built for the
// terminal's background (light or dark) and for NO_COLOR.
package styles

import (
	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
)

// Styles is the shared style set every pane receives. It is a plain value:
// the root rebuilds it when the terminal reports its background colour.
type Styles struct {
	IsDark  bool
	NoColor bool
	// StillCursor keeps the text inputs' cursors from blinking: bubbles
	// times the blink itself, which a screen under a test's clock must not
	// (see ui.Options.Timer).
	StillCursor bool

	App       lipgloss.Style // header line: name
	URL       lipgloss.Style
	Dim       lipgloss.Style // secondary text: guides, elapsed, labels
	Label     lipgloss.Style // field names in the detail pane
	Title     lipgloss.Style // a session's title
	Badge     lipgloss.Style // the @agent badge
	Selected  lipgloss.Style // the selected tree row
	Focused   lipgloss.Style // pane heading when the pane has focus
	Highlight lipgloss.Style // the running tool call in the detail pane
	Border    lipgloss.Style // pane separators

	Busy    lipgloss.Style
	Done    lipgloss.Style
	Failed  lipgloss.Style
	Retry   lipgloss.Style
	Waiting lipgloss.Style
	// End states other than done and failed: each its own colour.
	Aborted, Interrupted, Denied lipgloss.Style

	Connected    lipgloss.Style
	Disconnected lipgloss.Style
	Flash        lipgloss.Style // one-line notices: "demo: read-only"

	Help help.Styles

	// Ink holds the same styles reduced to escape codes, for text drawn
	// every frame (see Ink).
	Ink Inks
}

// Inks are Styles' inline styles as Ink, field for field.
type Inks struct {
	App, URL, Dim, Label, Title, Bold, Badge, Selected, Focused, Highlight, Border Ink
	Busy, Done, Failed, Retry, Waiting                                             Ink
	Aborted, Interrupted, Denied                                                   Ink
	Connected, Disconnected, Flash                                                 Ink
}

func (s Styles) withInks() *Styles {
	s.Ink = Inks{
		App: InkOf(s.App), URL: InkOf(s.URL), Dim: InkOf(s.Dim), Label: InkOf(s.Label),
		Title: InkOf(s.Title), Bold: InkOf(s.Title.Bold(true)), Badge: InkOf(s.Badge),
		Selected: InkOf(s.Selected), Focused: InkOf(s.Focused), Highlight: InkOf(s.Highlight),
		Border: InkOf(s.Border), Busy: InkOf(s.Busy), Done: InkOf(s.Done), Failed: InkOf(s.Failed),
		Retry: InkOf(s.Retry), Waiting: InkOf(s.Waiting), Aborted: InkOf(s.Aborted),
		Interrupted: InkOf(s.Interrupted), Denied: InkOf(s.Denied), Connected: InkOf(s.Connected),
		Disconnected: InkOf(s.Disconnected), Flash: InkOf(s.Flash),
	}
	return &s
}

// New builds the styles for a dark or light background. With noColor set
// (NO_COLOR in the environment) it uses no colour at all, only bold and
// reverse video, so the screen still reads.
func New(isDark, noColor bool) *Styles {
	s := Styles{IsDark: isDark, NoColor: noColor}
	plain := lipgloss.NewStyle()
	if noColor {
		s.App = plain.Bold(true)
		s.URL = plain
		s.Dim = plain
		s.Label = plain
		s.Title = plain
		s.Badge = plain
		s.Selected = plain.Reverse(true)
		s.Focused = plain.Bold(true)
		s.Highlight = plain.Bold(true)
		s.Border = plain
		s.Busy = plain.Bold(true)
		s.Done, s.Failed, s.Retry, s.Waiting = plain, plain.Bold(true), plain, plain.Bold(true)
		s.Aborted, s.Interrupted, s.Denied = plain, plain.Bold(true), plain.Bold(true)
		s.Connected, s.Disconnected, s.Flash = plain, plain.Bold(true), plain.Bold(true)
		s.Help = help.Styles{}
		return s.withInks()
	}
	ld := lipgloss.LightDark(isDark)
	c := func(light, dark string) lipgloss.Style {
		return plain.Foreground(ld(lipgloss.Color(light), lipgloss.Color(dark)))
	}
	s.App = c("#5A3FC0", "#B4A2FF").Bold(true)
	s.URL = c("#3A3A3A", "#D0D0D0")
	s.Dim = c("#8A8A8A", "#6C6C6C")
	s.Label = c("#6A6A6A", "#8F8F8F")
	s.Title = c("#1C1C1C", "#EEEEEE")
	s.Badge = c("#0060A0", "#7FC8FF")
	s.Selected = plain.Background(ld(lipgloss.Color("#DADAF5"), lipgloss.Color("#33335A"))).Bold(true)
	s.Focused = c("#5A3FC0", "#B4A2FF").Bold(true)
	s.Highlight = plain.Background(ld(lipgloss.Color("#FFF3C4"), lipgloss.Color("#3F3A1A"))).Bold(true)
	s.Border = c("#C6C6C6", "#444444")
	s.Busy = c("#A06000", "#FFC857")
	s.Done = c("#2E7D32", "#7BD88F")
	s.Failed = c("#C62828", "#FF6B6B").Bold(true)
	s.Retry = c("#B45F00", "#FFA657")
	s.Waiting = c("#8E24AA", "#E29CFF").Bold(true)
	s.Aborted = c("#546E7A", "#90A4AE")
	s.Interrupted = c("#8D6E00", "#E5C07B").Bold(true)
	s.Denied = c("#AD1457", "#FF79C6").Bold(true)
	s.Connected = c("#2E7D32", "#7BD88F")
	s.Disconnected = c("#C62828", "#FF6B6B").Bold(true)
	s.Flash = c("#8E24AA", "#E29CFF").Bold(true)
	s.Help = help.DefaultStyles(isDark)
	return s.withInks()
}
