package cli

import (
	"runtime"
	"testing"
)

// TestHeapSampledOnlyWhenAsked: without OCTOP_MEMPROFILE the heap is not
// sampled (each sample keeps its stack for the life of the screen); with
// it, the runtime's default sampling stays.
func TestHeapSampledOnlyWhenAsked(t *testing.T) {
	old := runtime.MemProfileRate
	defer func() { runtime.MemProfileRate = old }()
	runtime.MemProfileRate = 512 * 1024
	t.Setenv("OCTOP_MEMPROFILE", t.TempDir()+"/heap.prof")
	heapProfileAtExit()
	if runtime.MemProfileRate == 0 {
		t.Fatal("OCTOP_MEMPROFILE set, yet the heap is not sampled")
	}
	t.Setenv("OCTOP_MEMPROFILE", "")
	heapProfileAtExit()
	if runtime.MemProfileRate != 0 {
		t.Fatalf("MemProfileRate = %d without OCTOP_MEMPROFILE, want 0", runtime.MemProfileRate)
	}
}
