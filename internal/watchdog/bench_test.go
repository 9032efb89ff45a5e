package watchdog

import (
	"fmt"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// benchState is n sessions (roots with 9 children each), each with 20
// tool calls, a tenth of them busy.
func benchState(n int) (*model.State, []wire.Event) {
	st := model.New()
	var last []wire.Event
	for i := 0; i < n; i++ {
		id, parent := fmt.Sprintf("ses_%06d", i), ""
		if i%10 != 0 {
			parent = fmt.Sprintf("ses_%06d", i-i%10)
		}
		evs := run1(id, parent)
		for j := 1; j <= 20; j++ {
			evs = append(evs, call(id, j, "bash", fmt.Sprint("echo ", j%7), wire.ToolCompleted))
		}
		if i%10 != 3 {
			evs = append(evs, finish(id)...)
		}
		for _, e := range evs {
			st.Apply(e)
		}
		last = evs
	}
	return st, last
}

// BenchmarkEvents is the watchdog's cost per event, after the model's.
func BenchmarkEvents(b *testing.B) {
	st, _ := benchState(10_000)
	w := New(Config{BudgetTokens: 1e9})
	w.Resync(st, 0)
	ev := call("ses_000003", 21, "bash", "echo x", wire.ToolCompleted)
	st.Apply(ev)
	evs := []wire.Event{ev}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Events(st, evs, int64(i))
	}
}

// BenchmarkTick is one stall check over 10,000 sessions (octop ticks
// once a second).
func BenchmarkTick(b *testing.B) {
	st, _ := benchState(10_000)
	w := New(Config{})
	w.Resync(st, 0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Tick(st, int64(i))
	}
}

// BenchmarkResync is the full look after a reconnect, over 10,000 sessions.
func BenchmarkResync(b *testing.B) {
	st, _ := benchState(10_000)
	w := New(Config{})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Resync(st, int64(i))
	}
}

// BenchmarkEventsDelta is the cost of the most frequent event, streamed
// text, which touches no detector but the stall.
func BenchmarkEventsDelta(b *testing.B) {
	st, _ := benchState(10_000)
	w := New(Config{BudgetTokens: 1e9})
	w.Resync(st, 0)
	evs := []wire.Event{delta("ses_000003", "prt_t")}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Events(st, evs, int64(i))
	}
}
