package model

import (
	"runtime"
	"testing"
)

// TestMemoryBound: 10,000 sessions with 100,000 tool calls (each with a
// 2 KB output, a command and a title, as bigState builds them through
// Apply) must fit in 100 MB of live heap. Memory is measured, not timed,
// so this is a test rather than a benchmark.
func TestMemoryBound(t *testing.T) {
	const limit = 100 << 20
	before := liveHeap()
	s, _ := bigState(10000, 10)
	after := liveHeap()
	runtime.KeepAlive(s)

	tools := 0
	for _, ss := range s.list {
		tools += len(ss.Tools)
	}
	if s.Len() != 10000 || tools != 100000 {
		t.Fatalf("built %d sessions, %d tool calls", s.Len(), tools)
	}
	used := int64(after) - int64(before)
	t.Logf("10,000 sessions, 100,000 tool calls: %.1f MB live heap (%d bytes per call)", float64(used)/(1<<20), used/int64(tools))
	if used > limit {
		t.Fatalf("live heap %.1f MB, over the %d MB bound", float64(used)/(1<<20), limit>>20)
	}
}

func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkMemory reports the live heap of 10,000 sessions with 100,000
// tool calls (the figure TestMemoryBound bounds at 100 MB):
//
//	go test -run '^$' -bench Memory -benchtime 1x ./model/
func BenchmarkMemory(b *testing.B) {
	for b.Loop() {
		before := liveHeap()
		s, _ := bigState(10000, 10)
		used := float64(int64(liveHeap()) - int64(before))
		runtime.KeepAlive(s)
		b.ReportMetric(used/(1<<20), "heap-MB")
		b.ReportMetric(used/100000, "bytes/call")
	}
}
