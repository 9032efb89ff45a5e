//go:build !linux

package sleep

import (
	"context"
	"time"
)

// alarm is a timerfd, which only Linux has: For uses a Go timer.
type alarm struct{}

func get() *alarm                                       { return nil }
func put(*alarm)                                        {}
func (*alarm) wait(context.Context, time.Duration) bool { return false }
func (*alarm) close()                                   {}
