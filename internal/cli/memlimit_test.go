package cli

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// TestAfterGCFollowsEachCollection: the memory limit is looked at after
// every collection (no ticker wakes the screen for it), with the live
// heap of that moment, and no more once the screen ends.
func TestAfterGCFollowsEachCollection(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := make(chan uint64, 100)
	afterGC(ctx, func(live uint64) { calls <- live })
	for range 3 {
		runtime.GC()
		var live uint64
		testwait.Eventually(t, func() bool {
			select {
			case live = <-calls:
				return true
			default:
				runtime.GC()
				return false
			}
		}, 10*time.Second, "the hook after a collection")
		if live == 0 {
			t.Fatal("the hook saw no live heap")
		}
	}
	cancel()
	runtime.GC()
	runtime.GC()
	for len(calls) > 0 {
		<-calls
	}
	runtime.GC()
	runtime.GC()
	if len(calls) != 0 {
		t.Errorf("the hook ran %d times after the screen ended", len(calls))
	}
}
