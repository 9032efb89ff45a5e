package cli

import (
	"context"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The screen's memory limit (debug.SetMemoryLimit), unless GOMEMLIMIT
// sets one: memFloor, or memHeadroom times the live heap when that is
// more, looked at every memEvery. With Go's default alone the heap grows
// to twice what is live before it is collected: a screen of 50,000
// sessions would grow past the budget in docs/perf.md. The limit makes the
// collector work a little more often instead, and follows the data up
// (a sort that reads every history), so it never works in vain.
const (
	memFloor    = 48 << 20
	memHeadroom = 1.25
	memEvery    = time.Second
)

// boundMemory holds the process to the limit above until ctx ends.
func boundMemory(ctx context.Context) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(memFloor)
	go func() {
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		t := time.NewTicker(memEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				return // a runtime without the metric: the floor stays
			}
			live := float64(sample[0].Value.Uint64())
			debug.SetMemoryLimit(max(memFloor, int64(live*memHeadroom)))
		}
	}()
}
