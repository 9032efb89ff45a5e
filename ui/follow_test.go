package ui

import (
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/wire"
)

// Follow keeps one busy session selected while it shows signs of life,
// whatever its siblings do; it moves on once that one is quiet for 5 s or
// ends, to the one active most recently.
func TestFollowKeepsOneBusySession(t *testing.T) {
	clock := now // t0+95s
	m := newTestModel(t, 120, 30, func(o *Options) { o.Clock = func() time.Time { return clock } })
	call := func(id, part string, sec float64) EventsMsg {
		return events(toolCall(id, part, "bash", wire.ToolRunning, "step", `{}`, sec, -1))
	}
	m = send(t, m, events(created("ses_root", "", "root", 1), busy("ses_root"),
		created("ses_a", "ses_root", "a", 2), busy("ses_a"), created("ses_b", "ses_root", "b", 3), busy("ses_b")))
	m = send(t, m, call("ses_a", "prt_a1", 94))
	m = press(t, m, "f")
	if got := m.Selected(); got != "ses_a" {
		t.Fatalf("follow picked %q, want the most recently active ses_a", got)
	}
	// b is active now, a was active a second ago: a stays.
	m = send(t, m, call("ses_b", "prt_b1", 95))
	if got := m.Selected(); got != "ses_a" {
		t.Fatalf("follow jumped to %q while ses_a was still active", got)
	}
	// Six seconds on, only b has moved: a is quiet, follow moves to b.
	clock = clock.Add(6 * time.Second)
	m = send(t, m, call("ses_b", "prt_b2", 101))
	if got := m.Selected(); got != "ses_b" {
		t.Fatalf("follow stayed on %q, quiet for 7 s; want ses_b", got)
	}
	// b ends: follow moves at once to the busy one active most recently.
	m = send(t, m, call("ses_a", "prt_a2", 100.5))
	if got := m.Selected(); got != "ses_b" {
		t.Fatalf("follow left ses_b (%q) while it was active", got)
	}
	m = send(t, m, events(idle("ses_b")))
	if got := m.Selected(); got != "ses_a" {
		t.Fatalf("ses_b ended, follow is on %q, want ses_a", got)
	}
	// Quiet with no event at all: the clock alone moves follow on.
	m = send(t, m, call("ses_root", "prt_r1", 101))
	clock = clock.Add(10 * time.Second)
	for range 10 {
		m = send(t, m, tickMsg{})
	}
	if got := m.Selected(); got != "ses_root" {
		t.Fatalf("after 10 quiet seconds follow is on %q, want ses_root (active last)", got)
	}
}
