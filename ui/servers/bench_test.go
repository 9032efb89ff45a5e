package servers

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui"
)

// manyRoots is n busy roots on one server.
func manyRoots(n int) ui.EventsMsg {
	var out ui.EventsMsg
	for i := range n {
		id := fmt.Sprintf("ses_%05d", i)
		out = append(out, created(id, "root task "+id)...)
		out = append(out, busy(id)...)
	}
	return out
}

// BenchmarkView is one frame of two servers at 160×48, the cursor in
// the middle of the second's rows, against one server's own frame
// (single): the one tree draws only the lines in view, so its cost must
// not grow with the servers' sessions, and the splice over the selected
// screen's frame is what it adds. Measured (go test -run '^$' -bench
// BenchmarkView -benchtime 300x -count 5 ./internal/servers/, 2 busy cores,
// medians): 148 µs at 2×100 sessions, 138 µs at 2×10,000; one server's
// own frame 89 µs and 62 µs.
func BenchmarkView(b *testing.B) {
	for _, n := range []int{100, 10_000} {
		m := send(New([]ui.Model{screen("http://a:1"), screen("http://b:2")}, true), tea.WindowSizeMsg{Width: 160, Height: 48})
		for i := range 2 {
			m = send(m, Msg{Server: i, Msg: wire.ConnState{State: wire.Connected, Attempt: 1}}, Msg{Server: i, Msg: manyRoots(n)})
		}
		m = press(m, "G")
		for range n / 2 {
			m = press(m, "k")
		}
		b.Run(fmt.Sprintf("sessions=2x%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = m.View()
			}
		})
		b.Run(fmt.Sprintf("single/sessions=%d", n), func(b *testing.B) {
			s := m.Screen(1)
			b.ReportAllocs()
			for b.Loop() {
				_ = s.View()
			}
		})
	}
}
