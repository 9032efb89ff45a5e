package tree

import (
	"fmt"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

// busyTree is 5 roots with 9 busy children each: 50 rows, a 200x50 pane.
func busyTree() (*model.State, Model) {
	st := model.New()
	for r := range 5 {
		root := fmt.Sprintf("ses_r%d", r)
		st.Apply(wire.SessionCreated{Info: wire.Session{ID: root, Title: fmt.Sprintf("root task %d", r),
			Time: wire.SessionTime{Created: int64(r), Updated: int64(r)}}})
		for c := range 9 {
			kid := fmt.Sprintf("%s_c%d", root, c)
			st.Apply(child(kid, root, int64(10*r+c+1)))
			st.Apply(wire.SessionStatusChanged{SessionID: kid, Status: wire.SessionStatus{Type: wire.StatusBusy}})
			st.Apply(soakTool(kid, "msg_"+kid, "prt_"+kid, wire.ToolRunning, `{"command":"go test ./..."}`, "", 5, 0))
		}
	}
	m := New(styles.New(true, false))
	m.SetSize(200, 50)
	m.SetState(st)
	m.SetClock(1_700_000_000_000, "⠋")
	return st, m
}

// BenchmarkRenderRow draws one busy row from scratch: what a cache miss
// costs.
func BenchmarkRenderRow(b *testing.B) {
	st, m := busyTree()
	r := m.Rows()[3]
	o := rowOpts{width: 200, now: m.now, spin: m.spin, inks: m.inks}
	b.ReportAllocs()
	for b.Loop() {
		_ = renderRow(st, r, o)
	}
}

// BenchmarkViewAfterEvent is the pane's frame after one tool update to one
// of its 50 busy sessions, the clock and spinner still: only that row
// should be drawn again.
func BenchmarkViewAfterEvent(b *testing.B) {
	st, m := busyTree()
	_ = m.View()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		kid := fmt.Sprintf("ses_r%d_c%d", i%5, i%9)
		st.Apply(soakTool(kid, "msg_"+kid, fmt.Sprintf("prt_%s_%d", kid, i), wire.ToolRunning, `{"command":"make"}`, "", 6, 0))
		m.Sync()
		_ = m.View()
	}
}

// BenchmarkViewAfterTick is the pane's frame when only the spinner moved:
// the busy rows are drawn again, nothing is re-measured elsewhere.
func BenchmarkViewAfterTick(b *testing.B) {
	_, m := busyTree()
	spins := []string{"⠋", "⠙", "⠹", "⠸"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		m.SetClock(m.now, spins[i%4])
		_ = m.View()
	}
}
