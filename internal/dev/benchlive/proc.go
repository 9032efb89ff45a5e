package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/octop-dev/octop/internal/dev/procstat"
)

// clkTck is USER_HZ, the unit of /proc/PID/stat's times; 100 on every
// Linux Go runs on.
const clkTck = 100

// usage is what /proc says one process tree has used.
type usage struct {
	cpu   float64 // utime+stime+cutime+cstime, seconds, summed over the tree
	hwmKB int     // VmHWM, summed over the tree
}

// treeOf is pid and all its live descendants.
func treeOf(pid int) []int {
	kids := map[int][]int{}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		p, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		if pp, err := ppid(p); err == nil {
			kids[pp] = append(kids[pp], p)
		}
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, kids[out[i]]...)
	}
	return out
}

// statFields are the fields of /proc/PID/stat after the command name.
func statFields(pid int) ([]string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	return strings.Fields(s[i+1:]), nil
}

func ppid(pid int) (int, error) {
	f, err := statFields(pid)
	if err != nil || len(f) < 2 {
		return 0, fmt.Errorf("/proc/%d/stat: unreadable", pid)
	}
	return strconv.Atoi(f[1])
}

// cpuSeconds is utime+stime+cutime+cstime of one process (fields 14-17
// of stat; 11-14 after the name).
func cpuSeconds(pid int) float64 {
	f, err := statFields(pid)
	if err != nil || len(f) < 15 {
		return 0
	}
	var ticks float64
	for _, s := range f[11:15] {
		n, _ := strconv.ParseFloat(s, 64)
		ticks += n
	}
	return ticks / clkTck
}

// measure sums CPU and peak RSS over pid's process tree.
func measure(pid int) usage {
	var u usage
	for _, p := range treeOf(pid) {
		u.cpu += cpuSeconds(p)
		u.hwmKB += int(procstat.Of(p, "VmHWM"))
	}
	return u
}

// resetPeak resets VmHWM to the current RSS over pid's tree (clear_refs
// 5), so the peak counts from the start of the measurement.
func resetPeak(pid int) error {
	for _, p := range treeOf(pid) {
		if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", p), []byte("5"), 0); err != nil {
			return fmt.Errorf("reset the peak RSS of %d: %w", p, err)
		}
	}
	return nil
}
