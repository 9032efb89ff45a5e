package usage

import (
	"testing"

	"github.com/octop-dev/octop/model"
)

// TestEndOf: every kind the model derives falls in one of --by end's
// groups, the five ends the issue names each in its own, and a live
// session (a root waiting on background tasks too) never in an end.
func TestEndOf(t *testing.T) {
	want := map[model.Kind]string{
		model.KindComplete: EndComplete, model.KindFailed: EndFailed, model.KindAborted: EndAborted,
		model.KindInterrupted: EndInterrupted, model.KindDenied: EndDenied,
		model.KindRunning: EndRunning, model.KindWaiting: EndRunning, model.KindRetrying: EndRunning,
		model.KindBackground: EndRunning, model.KindIdle: EndIdle, model.KindNotLoaded: EndUnknown,
	}
	for k := model.Kind(0); k <= model.KindBackground; k++ {
		w, ok := want[k]
		if !ok {
			t.Fatalf("kind %v (%d) has no expected end: add it here", k, k)
		}
		got := EndOf(k)
		if got != w {
			t.Errorf("EndOf(%v) = %q, want %q", k, got, w)
		}
		if _, ordered := endOrder[got]; !ordered {
			t.Errorf("EndOf(%v) = %q, which --by end does not order", k, got)
		}
	}
}
