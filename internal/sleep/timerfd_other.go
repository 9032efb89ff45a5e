//go:build !linux

package sleep

import "time"

// alarm is a timerfd, which only Linux has: For uses a Go timer.
type alarm struct{}

func get() *alarm                      { return nil }
func put(*alarm)                       {}
func (*alarm) wait(time.Duration) bool { return false }
func (*alarm) cut()                    {}
func (*alarm) close()                  {}
