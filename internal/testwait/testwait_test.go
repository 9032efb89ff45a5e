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
	if el := time.Since(start); el < 30*time.Millisecond {
		t.Errorf("gave up after %v, before its 30ms timeout", el)
	}
	if ft.failed != "timed out after 30ms waiting for the impossible" {
		t.Errorf("failure %q", ft.failed)
	}
}

func TestCheckSaysTheLastReason(t *testing.T) {
	ft := &fakeT{}
	n := 0
	Check(ft, func() error { n++; return fmt.Errorf("%d of 4 events", n) }, 20*time.Millisecond, "4 events")
	if !strings.HasPrefix(ft.failed, "timed out after 20ms waiting for 4 events: ") || !strings.HasSuffix(ft.failed, fmt.Sprintf("%d of 4 events", n)) {
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
