package ui

import (
	"strings"
	"testing"
	"time"
)

// TestDemoLoopDrawsAsFresh: when the demo's recording starts over (ResetMsg)
// every frame of the second pass is the frame a fresh screen draws at the
// same point: nothing drawn in the first pass shows through.
func TestDemoLoopDrawsAsFresh(t *testing.T) {
	evs := fanOut()
	looped := newTestModel(t, 120, 40)
	for _, env := range evs {
		looped = send(t, looped, EventsMsg{env})
		_ = screen(looped)
	}
	looped = send(t, looped, ResetMsg{})
	fresh := newTestModel(t, 120, 40)
	for i, env := range evs {
		looped = send(t, looped, EventsMsg{env})
		fresh = send(t, fresh, EventsMsg{env})
		if got, want := screen(looped), screen(fresh); got != want {
			t.Fatalf("after event %d of the second pass the screen is\n%s\nwant, as a fresh screen draws it,\n%s", i+1, got, want)
		}
	}
}

// TestDemoLoopClockGoesBack: at the demo's loop point the replay's clock
// goes back to the recording's start. The first run of the new pass must
// read its own elapsed time at once, not the end of the last pass's clock
// until the next tick: "⠋ refactor the parser 1m35s" looked like the
// root that had just finished spinning again.
func TestDemoLoopClockGoesBack(t *testing.T) {
	clock := now // the end of the first pass: 95 s in
	m := newTestModel(t, 120, 40, func(o *Options) { o.Clock = func() time.Time { return clock } })
	m = send(t, m, fanOut())
	m = send(t, m, tickMsg{})
	m = send(t, m, ResetMsg{})
	clock = time.UnixMilli(t0 + 2_000) // the player seeks to the start
	m = send(t, m, events(created("ses_root", "", "refactor the parser", 0), userMsg("ses_root", 0), busy("ses_root")))
	row := rowLine(screen(m), "refactor the parser")
	if !strings.Contains(row, " 2s") || strings.Contains(row, "1m") {
		t.Fatalf("the new pass's root row is %q, want its elapsed 2s on the replay's clock", row)
	}
}

// rowLine is the first line below the header that holds title.
func rowLine(sc, title string) string {
	for i, l := range strings.Split(sc, "\n") {
		if i >= 2 && strings.Contains(l, title) {
			return l
		}
	}
	return ""
}
