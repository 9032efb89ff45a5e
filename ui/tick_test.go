package ui

import (
	"strings"
	"testing"
	"time"
)

// TestTickDrawsOnlyWhatTheSecondChanges: while children run, a tick inside
// the same second leaves the screen as it was (the spinner draws no frame
// of its own), and the next second moves the clocks and the spinner
// together.
func TestTickDrawsOnlyWhatTheSecondChanges(t *testing.T) {
	clock := now.Truncate(time.Second).Add(100 * time.Millisecond)
	m := newTestModel(t, 200, 50, func(o *Options) { o.Clock = func() time.Time { return clock } })
	m = send(t, m, liveFanOut(8, 10))
	m = send(t, m, tickMsg{})
	before := screen(m)
	spin := func(m Model) string { return spinnerFrames[m.frame%len(spinnerFrames)] }
	if !strings.Contains(before, spin(m)) {
		t.Fatalf("no busy mark %q on screen:\n%s", spin(m), before)
	}

	clock = clock.Add(800 * time.Millisecond)
	m = send(t, m, tickMsg{})
	if got := screen(m); got != before {
		t.Fatalf("a tick within the second changed the screen:\n%s\nwas:\n%s", got, before)
	}

	clock = clock.Add(200 * time.Millisecond)
	last := spin(m)
	m = send(t, m, tickMsg{})
	after := screen(m)
	if after == before {
		t.Fatal("the next second's tick did not move the clocks")
	}
	if spin(m) == last || !strings.Contains(after, spin(m)) {
		t.Fatalf("the spinner did not step with the second: %q then %q:\n%s", last, spin(m), after)
	}
}
