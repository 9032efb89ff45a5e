package sleep

import (
	"testing"
	"time"
)

// TestLinuxWaitsOnATimerfd: on Linux For has its timerfd, so the test
// above measures it and not the Go timer it falls back to.
func TestLinuxWaitsOnATimerfd(t *testing.T) {
	a := get()
	if a == nil {
		t.Fatal("no timerfd: For waits on Go timers")
	}
	if !a.wait(time.Millisecond) {
		t.Fatal("the timerfd could not be armed")
	}
	put(a)
}
