package ui

import (
	"fmt"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/octop-dev/octop/internal/wire"
)

// TestGolden pins the whole screen, without colour, at the two sizes the
// issue names, for each state worth seeing. Run with -update after an
// intended change and read the diff.
func TestGolden(t *testing.T) {
	scenarios := []struct {
		name  string
		setup func(t *testing.T, m Model) Model
	}{
		{"empty", func(t *testing.T, m Model) Model { return m }},
		{"fanout", func(t *testing.T, m Model) Model {
			return press(t, send(t, m, fanOut()), "j", "j") // the second child, mid-way through go test
		}},
		{"nested", func(t *testing.T, m Model) Model {
			// Fold the first mid-level agent: its row counts the leaves
			// still running underneath.
			return press(t, send(t, m, nested()), "j", "h")
		}},
		{"errors", func(t *testing.T, m Model) Model {
			return press(t, send(t, m, troubled()), "j") // the aborted child with a failed call
		}},
		{"waiting", func(t *testing.T, m Model) Model {
			return press(t, send(t, m, troubled()), "G") // the child blocked on a permission
		}},
		{"retrying", func(t *testing.T, m Model) Model {
			return press(t, send(t, m, troubled()), "j", "j") // the child waiting out a rate limit
		}},
		{"full-help", func(t *testing.T, m Model) Model {
			return press(t, send(t, m, fanOut()), "?")
		}},
		{"filtered", func(t *testing.T, m Model) Model {
			return press(t, send(t, m, fanOut()), "/", "test", "enter")
		}},
		{"disconnected", func(t *testing.T, m Model) Model {
			m = send(t, m, fanOut())
			return send(t, m, wire.ConnState{State: wire.Disconnected, Err: errRefused,
				RetryAt: now.Add(2500 * time.Millisecond), Attempt: 3})
		}},
	}
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		for _, sc := range scenarios {
			t.Run(fmt.Sprintf("%s/%dx%d", sc.name, size[0], size[1]), func(t *testing.T) {
				m := sc.setup(t, newTestModel(t, size[0], size[1]))
				out := screen(m)
				checkScreenShape(t, out, size[0], size[1])
				golden.RequireEqual(t, out)
			})
		}
	}
}
