package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/octop-dev/octop/internal/dev/procstat"
)

// usage is what /proc says of one process.
type usage struct {
	cpu        float64 // utime+stime, seconds
	vol, invol int     // context switches, summed over its threads
	threads    int
	hwmKB      int // VmHWM
}

func (u usage) minus(b usage) usage {
	return usage{cpu: u.cpu - b.cpu, vol: u.vol - b.vol, invol: u.invol - b.invol, threads: u.threads, hwmKB: u.hwmKB}
}

// measure reads pid's figures.
func measure(pid int) usage {
	var u usage
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 12 {
			ut, _ := strconv.ParseFloat(f[11], 64)
			st, _ := strconv.ParseFloat(f[12], 64)
			u.cpu = (ut + st) / 100
		}
	}
	u.hwmKB = int(procstat.Field(fmt.Sprintf("/proc/%d/status", pid), "VmHWM"))
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	u.threads = len(tasks)
	for _, t := range tasks {
		u.vol += int(procstat.Field(t, "voluntary_ctxt_switches"))
		u.invol += int(procstat.Field(t, "nonvoluntary_ctxt_switches"))
	}
	return u
}

// resetPeak sets VmHWM to the current RSS (clear_refs 5).
func resetPeak(pid int) {
	_ = os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0)
}
