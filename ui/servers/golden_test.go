package servers

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/octop-dev/octop/internal/testkit/colourtest"
)

// TestGolden pins the one tree in NO_COLOR: on a server's group line, on
// a session of the other server once it is down, and folded in the
// narrow layout. Run with -update after an intended change and read the
// diff.
func TestGolden(t *testing.T) {
	for _, sc := range []struct {
		name string
		m    func() Model
	}{
		{"group", scene},
		{"session_of_down_server", func() Model { return press(lose(scene(), 1), "G") }},
		{"narrow_folded", func() Model {
			return press(send(scene(), tea.WindowSizeMsg{Width: 80, Height: 24}), "left", "j", "j")
		}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			out := sc.m().View().Content
			if e := colourtest.Escape(out); e != "" {
				t.Fatalf("a colour escape %s under NO_COLOR:\n%s", e, out)
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
}
