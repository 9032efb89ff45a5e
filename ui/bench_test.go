package ui

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/internal/wire"
)

// bigTree is n sessions: n/10 busy roots with nine busy children each,
// every child with a running bash call.
func bigTree(n int) EventsMsg {
	evs := make([]wire.Event, 0, n*4)
	for r := 0; r < n/10; r++ {
		root := fmt.Sprintf("ses_r%05d", r)
		evs = append(evs, created(root, "", fmt.Sprintf("root task %d", r), float64(r)), busy(root))
		for c := range 9 {
			kid := fmt.Sprintf("%s_c%d", root, c)
			evs = append(evs, created(kid, root, fmt.Sprintf("child %d of %d (@general subagent)", c, r), float64(r)+0.1),
				busy(kid), asstMsg(kid, 100, 0.001, float64(r)+0.2),
				toolCall(kid, kid+"_b", "bash", wire.ToolRunning, "go test ./...", `{"command":"go test ./..."}`, float64(r)+0.3, -1))
		}
	}
	return events(evs...)
}

// BenchmarkView is one frame at 160×48: a tick (clock and spinner move, so
// no cached row can be reused) and the render. Only the rows in view are
// drawn, so the cost must not grow with the tree.
func BenchmarkView(b *testing.B) {
	for _, n := range []int{100, 10_000} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			clock := now
			m := New(Options{ServerURL: "http://127.0.0.1:4096", Clock: func() time.Time { return clock }})
			m = send(b, m, tea.WindowSizeMsg{Width: 160, Height: 48})
			m = send(b, m, bigTree(n))
			m = press(b, m, "G", "k", "k") // somewhere in the middle of the last root
			if got := m.State().Len(); got != n {
				b.Fatalf("built %d sessions, want %d", got, n)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				clock = clock.Add(time.Second)
				nm, _ := m.Update(tickMsg{})
				m = nm.(Model)
				_ = m.View()
			}
		})
	}
}

// BenchmarkEventBurst is one batch of 1,000 tool updates arriving at a
// tree: one Update (apply, rebuild the rows, recount) and one render. The
// rebuild walks the tree, so this one does grow with it.
func BenchmarkEventBurst(b *testing.B) {
	for _, n := range []int{1000, 10_000} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			m := New(Options{ServerURL: "http://127.0.0.1:4096", Clock: fixedClock})
			m = send(b, m, tea.WindowSizeMsg{Width: 160, Height: 48})
			m = send(b, m, bigTree(n))
			burst := make([]wire.Event, 1000)
			for i := range burst {
				kid := fmt.Sprintf("ses_r%05d_c%d", i%(n/10), i%9)
				burst[i] = toolCall(kid, kid+"_b", "bash", wire.ToolRunning, fmt.Sprintf("step %d", i), `{"command":"x"}`, 50, -1)
			}
			msg := events(burst...)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				nm, _ := m.Update(msg)
				m = nm.(Model)
				_ = m.View()
			}
		})
	}
}
