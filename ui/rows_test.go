package ui

import (
	"strings"
	"testing"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/wire"
)

// TestViewLinesIsView: ViewLines' lines are View's content, line for
// line, in the wide and the narrow layout, with and without a dialog.
func TestViewLinesIsView(t *testing.T) {
	for _, size := range []tea.WindowSizeMsg{{Width: 200, Height: 50}, {Width: 90, Height: 30}} {
		m := New(Options{ServerURL: "http://127.0.0.1:4096", Clock: func() time.Time { return now }})
		m = send(t, m, size)
		m = send(t, m, liveFanOut(8, 10))
		for _, keys := range [][]string{nil, {"?"}, {"n"}} {
			mm := press(t, m, keys...)
			lines, v := mm.ViewLines()
			want := mm.View()
			if got := strings.Join(lines, "\n"); got != want.Content {
				t.Fatalf("%dx%d after %v: ViewLines differs from View:\n%s\n---\n%s", size.Width, size.Height, keys, got, want.Content)
			}
			if len(lines) != size.Height || v.Content != "" || v.WindowTitle != want.WindowTitle || v.MouseMode != want.MouseMode {
				t.Fatalf("%dx%d after %v: %d lines, view %+v; want %d lines and View's fields %+v", size.Width, size.Height, keys, len(lines), v, size.Height, want)
			}
		}
	}
}

// TestUnchangedRowsAreTheSameStrings: after an event that changes one
// child, the screen's other rows are the very strings of the frame
// before (the renderer then compares them for nothing).
func TestUnchangedRowsAreTheSameStrings(t *testing.T) {
	m := New(Options{ServerURL: "http://127.0.0.1:4096", Clock: func() time.Time { return now }})
	m = send(t, m, tea.WindowSizeMsg{Width: 200, Height: 50})
	m = send(t, m, liveFanOut(8, 10))
	before, _ := m.ViewLines()
	m = send(t, m, events(toolCall("ses_kid7", "ses_kid7_p20", "bash", wire.ToolRunning, "step", `{"command":"x"}`, 50, -1)))
	after, _ := m.ViewLines()
	same := 0
	for i := range before {
		if before[i] == after[i] && unsafe.StringData(before[i]) == unsafe.StringData(after[i]) {
			same++
		}
	}
	if changed := len(before) - same; same < len(before)/2 || changed == 0 {
		t.Fatalf("%d of %d rows are the same strings, %d new: want most kept and the changed ones new", same, len(before), changed)
	}
}
