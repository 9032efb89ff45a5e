package cli

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// startCPUProfile writes a CPU profile of the screen to the file
// OCTOP_CPUPROFILE names, for `go tool pprof` (make bench-live
// BENCHLIVE_FLAGS=-cpuprofile=DIR sets it); stop ends and closes it. Unset,
// it does nothing.
func startCPUProfile() (stop func(), err error) {
	stopMem := heapProfileAtExit()
	path := os.Getenv("OCTOP_CPUPROFILE")
	if path == "" {
		return stopMem, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("OCTOP_CPUPROFILE: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("OCTOP_CPUPROFILE: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
		stopMem()
	}, nil
}

// heapProfileAtExit returns what writes the live heap's profile to the
// file OCTOP_MEMPROFILE names when octop ends (make bench-scale: where a
// screen's memory goes); unset, nothing, and the heap is not sampled at
// all: a sample keeps its call stack for the life of the process.
func heapProfileAtExit() func() {
	path := os.Getenv("OCTOP_MEMPROFILE")
	if path == "" {
		runtime.MemProfileRate = 0
		return func() {}
	}
	return func() {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "octop: OCTOP_MEMPROFILE:", err)
			return
		}
		defer f.Close()
		runtime.GC()
		if err := pprof.WriteHeapProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "octop: OCTOP_MEMPROFILE:", err)
		}
	}
}
