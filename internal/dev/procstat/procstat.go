// Package procstat reads the figures the bench targets take of a process
// from Linux's /proc: one "Name:   123 kB" field of a status file.
package procstat

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Field is the number of one "Name:   123 kB" (or "Name:  123") line of
// the status file at path (/proc/PID/status, /proc/PID/task/TID/status);
// 0 when the file or the line is missing.
func Field(path, name string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, name+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// Of is Field of process pid's status.
func Of(pid int, name string) int64 { return Field(fmt.Sprintf("/proc/%d/status", pid), name) }
