package testwait

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeT records a failure instead of stopping the test.
type fakeT struct{ failed string }

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed = fmt.Sprintf(format, args...)
}

func TestEventuallyReturnsOnceTheConditionHolds(t *testing.T) {
	var n atomic.Int32
	ft := &fakeT{}
	Eventually(ft, func() bool { return n.Add(1) >= 3 }, 10*time.Second, "the third call")
	if ft.failed != "" || n.Load() != 3 {
		t.Fatalf("failed %q after %d calls, want success on the third", ft.failed, n.Load())
	}
}

func TestEventuallyFailsAtTheDeadline(t *testing.T) {
	ft := &fakeT{}
	start := time.Now()
	Eventually(ft, func() bool { return false }, 30*time.Millisecond, "the %s", "impossible")
	if el := time.Since(start); el < Scale(30*time.Millisecond) {
		t.Errorf("gave up after %v, before its %v timeout", el, Scale(30*time.Millisecond))
	}
	if ft.failed != fmt.Sprintf("timed out after %v waiting for the impossible", Scale(30*time.Millisecond)) {
		t.Errorf("failure %q", ft.failed)
	}
}

func TestCheckSaysTheLastReason(t *testing.T) {
	ft := &fakeT{}
	n := 0
	Check(ft, func() error { n++; return fmt.Errorf("%d of 4 events", n) }, 20*time.Millisecond, "4 events")
	if !strings.HasPrefix(ft.failed, fmt.Sprintf("timed out after %v waiting for 4 events: ", Scale(20*time.Millisecond))) || !strings.HasSuffix(ft.failed, fmt.Sprintf("%d of 4 events", n)) {
		t.Errorf("failure %q does not end with the last reason (call %d)", ft.failed, n)
	}
}

func TestPollReturnsTheLastError(t *testing.T) {
	want := errors.New("still busy")
	if err := Poll(func() error { return want }, 5*time.Millisecond); err != want {
		t.Errorf("Poll = %v, want %v", err, want)
	}
	if err := Poll(func() error { return nil }, 0); err != nil {
		t.Errorf("Poll of a holding condition = %v", err)
	}
}

// OCTOP_TEST_SLOW is a positive factor; anything else is refused with a
// line that says what to set.
func TestParseSlow(t *testing.T) {
	for v, want := range map[string]float64{"": 1, "1": 1, "3": 3, "2.5": 2.5, "0.5": 0.5} {
		if got, err := ParseSlow(v); err != nil || got != want {
			t.Errorf("ParseSlow(%q) = %v, %v; want %v", v, got, err, want)
		}
	}
	for _, v := range []string{"0", "-2", "slow", "3x", "NaN", "1e9"} {
		if _, err := ParseSlow(v); err == nil || !strings.Contains(err.Error(), "OCTOP_TEST_SLOW=") {
			t.Errorf("ParseSlow(%q) = %v; want an error naming the variable", v, err)
		}
	}
}

// Scale multiplies by the knob this run was started with.
func TestScale(t *testing.T) {
	if got, want := Scale(2*time.Second), time.Duration(float64(2*time.Second)*Slow()); got != want {
		t.Errorf("Scale(2s) = %v, want %v at OCTOP_TEST_SLOW %v", got, want, Slow())
	}
}
