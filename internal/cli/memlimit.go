package cli

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The screen's memory limit (debug.SetMemoryLimit), unless GOMEMLIMIT
// sets one: memFloor, or memHeadroom times the live heap when that is
// more, looked at after every garbage collection. With Go's default alone
// the heap grows to twice what is live before it is collected: a screen
// of 50,000 sessions would grow past the budget in docs/perf.md. The
// limit makes the collector work a little more often instead, and follows
// the data up (a sort that reads every history), so it never works in
// vain.
const (
	memFloor    = 48 << 20
	memHeadroom = 1.25
)

// boundMemory holds the process to the limit above until ctx ends.
//
// It looks after each collection, when the live heap is new, not on a
// ticker: a ticker would wake an idle screen every time for nothing
// (package sleep says what a Go timer costs).
func boundMemory(ctx context.Context) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(memFloor)
	afterGC(ctx, func(live uint64) {
		debug.SetMemoryLimit(max(memFloor, int64(float64(live)*memHeadroom)))
	})
}

// afterGC calls f with the live heap after each garbage collection, until
// ctx ends: a cleanup on an object nothing holds runs once the collector
// has found it unreachable, and each run arms the next.
func afterGC(ctx context.Context, f func(live uint64)) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		// 16 bytes: smaller objects share a block, whose cleanups can wait
		// for its other tenants.
		runtime.AddCleanup(new([16]byte), func(struct{}) {
			if ctx.Err() != nil {
				return
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				return // a runtime without the metric: the floor stays
			}
			f(sample[0].Value.Uint64())
			arm()
		}, struct{}{})
	}
	arm()
}
