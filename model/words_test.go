package model

import "testing"

// TestKindEnd: every kind the model derives has one end word, in the
// table's order (Ends), the five ends the issue names each its own, and a
// live session (a root waiting on background tasks too) never an end.
func TestKindEnd(t *testing.T) {
	want := map[Kind]string{
		KindComplete: EndComplete, KindFailed: EndFailed, KindAborted: EndAborted,
		KindInterrupted: EndInterrupted, KindDenied: EndDenied,
		KindRunning: EndRunning, KindWaiting: EndRunning, KindRetrying: EndRunning,
		KindBackground: EndRunning, KindIdle: EndIdle, KindNotLoaded: EndUnknown,
	}
	ordered := map[string]bool{}
	for _, e := range Ends {
		ordered[e] = true
	}
	for k := Kind(0); k <= KindBackground; k++ {
		w, ok := want[k]
		if !ok {
			t.Fatalf("kind %v (%d) has no expected end: add it here", k, k)
		}
		if got := k.End(); got != w || !ordered[got] {
			t.Errorf("%v.End() = %q, want %q, one of Ends", k, got, w)
		}
		if back, ok := KindOfEnd(w); ok && back != k {
			t.Errorf("KindOfEnd(%q) = %v, want %v", w, back, k)
		}
	}
}
