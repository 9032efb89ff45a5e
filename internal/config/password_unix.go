//go:build unix

package config

import (
	"os/exec"
	"syscall"
)

// inOwnGroup starts cmd in a process group of its own and makes its
// context's end kill the whole group, not the shell alone.
func inOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
