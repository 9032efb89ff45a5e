// Package testwait waits in tests for a condition to hold, with a deadline,
// instead of a fixed sleep or a hand-written polling loop.
//
// Both helpers poll: first every millisecond, then less often (doubling up
// to 100ms), so a condition that holds at once costs nothing and a slow one
// (a real server, a terminal) is not hammered. On timeout they fail the test
// with Fatalf, saying what was awaited and, for Check, the last reason it
// was not yet so.
package testwait

import (
	"fmt"
	"time"
)

// TB is the part of testing.TB the helpers use, so that non-test helpers
// (internal/harness) can pass their own.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

const (
	firstPoll = time.Millisecond
	maxPoll   = 100 * time.Millisecond
)

// Eventually polls cond until it returns true, failing t if timeout passes
// first. what names the condition for the failure message ("the second
// connection"); args format it like fmt.Sprintf.
func Eventually(t TB, cond func() bool, timeout time.Duration, what string, args ...any) {
	t.Helper()
	Check(t, func() error {
		if cond() {
			return nil
		}
		return notYet{}
	}, timeout, what, args...)
}

// Check polls check until it returns nil, failing t if timeout passes
// first. The failure message ends with check's last error, so check can
// say how far things got ("3 of 4 events", the server's last answer).
func Check(t TB, check func() error, timeout time.Duration, what string, args ...any) {
	t.Helper()
	if err := Poll(check, timeout); err != nil {
		t.Fatalf("timed out after %v waiting for %s%s", timeout, fmt.Sprintf(what, args...), reason(err))
	}
}

// Poll polls check until it returns nil and returns nil, or returns check's
// last error once timeout has passed. It is the loop under Eventually and
// Check, for callers that must not fail a test (a cleanup, a harness).
func Poll(check func() error, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	wait := firstPoll
	for {
		err := check()
		if err == nil {
			return nil
		}
		left := time.Until(deadline)
		if left <= 0 {
			return err
		}
		time.Sleep(min(wait, left))
		wait = min(2*wait, maxPoll)
	}
}

// notYet is Eventually's reason: a bool condition has nothing to add.
type notYet struct{}

func (notYet) Error() string { return "" }

func reason(err error) string {
	if err == nil || err.Error() == "" {
		return ""
	}
	return ": " + err.Error()
}
