package harness

import "syscall"

// procAttr puts the server in its own process group, so Stop also ends
// the shells its tools run, and has the kernel kill it if the test binary
// dies first (a panic or a -timeout), so no server outlives its test.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
