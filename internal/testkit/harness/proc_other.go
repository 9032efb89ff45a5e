//go:build !linux

package harness

import "syscall"

// procAttr puts the server in its own process group, so Stop also ends
// the shells its tools run.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
