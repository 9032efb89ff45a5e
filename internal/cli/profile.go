package cli

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startCPUProfile writes a CPU profile of the screen to the file
// OCTOP_CPUPROFILE names, for `go tool pprof` (make bench-live
// BENCHLIVE_FLAGS=-cpuprofile=DIR sets it); stop ends and closes it. Unset,
// it does nothing.
func startCPUProfile() (stop func(), err error) {
	path := os.Getenv("OCTOP_CPUPROFILE")
	if path == "" {
		return func() {}, nil
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
	}, nil
}
