// Package testwait waits in tests for a condition to hold, with a deadline,
// instead of a fixed sleep or a hand-written polling loop.
//
// Both helpers poll: first every millisecond, then less often (doubling up
// to 100ms), so a condition that holds at once costs nothing and a slow one
// (a real server, a terminal) is not hammered. On timeout they fail the test
// with Fatalf, saying what was awaited and, for Check, the last reason it
// was not yet so.
//
// Every deadline they are given is multiplied by one knob, OCTOP_TEST_SLOW
// (a factor, default 1; see Scale), so a slow or loaded machine gets more
// time without a test changing: a deadline only says when to give up, never
// how fast something must be.
package testwait

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
)

// SlowEnv names the variable that scales every test deadline.
const SlowEnv = "OCTOP_TEST_SLOW"

// slow is OCTOP_TEST_SLOW, read once.
var slow = sync.OnceValue(func() float64 {
	f, err := ParseSlow(os.Getenv(SlowEnv))
	if err != nil {
		panic(err) // a test run with a bad knob must not pass on the wrong deadlines
	}
	return f
})

// ParseSlow reads a value of OCTOP_TEST_SLOW: a positive number, or empty
// for 1.
func ParseSlow(v string) (float64, error) {
	if v == "" {
		return 1, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f > 0 && f <= 1000) {
		return 0, fmt.Errorf("%s=%q: want a factor for every test deadline, a number above 0 such as 3", SlowEnv, v)
	}
	return f, nil
}

// Slow is the factor OCTOP_TEST_SLOW sets, 1 when it is unset.
func Slow() float64 { return slow() }

// Scale is d times OCTOP_TEST_SLOW: the deadline to give a wait of d on
// this machine. Every deadline a test or a harness waits on goes through
// it (Eventually, Check and Poll call it themselves).
func Scale(d time.Duration) time.Duration {
	return time.Duration(float64(d) * slow())
}

// TB is the part of testing.TB the helpers use, so that non-test helpers
// (internal/testkit/harness) can pass their own.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

const (
	firstPoll = time.Millisecond
	maxPoll   = 100 * time.Millisecond
)

// Eventually polls cond until it returns true, failing t if timeout
// (scaled by OCTOP_TEST_SLOW) passes first. what names the condition for the failure message ("the second
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

// Check polls check until it returns nil, failing t if timeout (scaled by
// OCTOP_TEST_SLOW) passes first. The failure message ends with check's last error, so check can
// say how far things got ("3 of 4 events", the server's last answer).
func Check(t TB, check func() error, timeout time.Duration, what string, args ...any) {
	t.Helper()
	timeout = Scale(timeout)
	if err := poll(check, timeout); err != nil {
		t.Fatalf("timed out after %v waiting for %s%s", timeout, fmt.Sprintf(what, args...), reason(err))
	}
}

// Poll polls check until it returns nil and returns nil, or returns check's
// last error once timeout (scaled by OCTOP_TEST_SLOW) has passed. It is the
// loop under Eventually and Check, for callers that must not fail a test (a
// cleanup, a harness).
func Poll(check func() error, timeout time.Duration) error {
	return poll(check, Scale(timeout))
}

func poll(check func() error, timeout time.Duration) error {
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
