package styles

import (
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestInkMatchesRender(t *testing.T) {
	for _, st := range []lipgloss.Style{
		lipgloss.NewStyle(),
		lipgloss.NewStyle().Bold(true),
		lipgloss.NewStyle().Foreground(lipgloss.Color("#FF6B6B")).Bold(true),
		lipgloss.NewStyle().Background(lipgloss.Color("#33335A")).Reverse(true),
	} {
		for _, s := range []string{"done", "├── ⠋ lint @general", "  padded  "} {
			if got, want := InkOf(st).Render(s), st.Render(s); got != want {
				t.Errorf("Ink %q != Render %q", got, want)
			}
			if got := ansi.Strip(InkOf(st).Render(s)); got != s {
				t.Errorf("Ink changed the text: %q", got)
			}
		}
	}
}
