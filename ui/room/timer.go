package room

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/sleep"
)

// Timer starts the screen's timers. Every wait of the root or a room (the
// clock's tick, a notice's expiry, a view's refresh) is a Cmd from a Timer,
// so that a test can run the screen on a fake clock (internal/testkit/drive) whose
// timers fire only when the test moves it: a slow machine then cannot
// change what a test sees.
type Timer interface {
	// After is a Cmd whose message fn makes d from now (tea.Tick).
	After(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd
	// Every is a Cmd whose message fn makes at the clock's next multiple
	// of d, e.g. on the next whole second (tea.Every).
	Every(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd
}

// RealTimer waits on the system clock, as tea.Tick and tea.Every do, but
// through package sleep: the clock's tick comes every second, and a Go
// timer would wake octop four times for it.
type RealTimer struct{}

// After is tea.Tick: fn's message d from now.
func (RealTimer) After(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
	return at(time.Now().Add(d), fn)
}

// Every is tea.Every: fn's message at the clock's next multiple of d.
func (RealTimer) Every(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
	return at(time.Now().Truncate(d).Add(d), fn)
}

// at is a Cmd whose message fn makes at t.
func at(t time.Time, fn func(time.Time) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		_ = sleep.For(context.Background(), time.Until(t))
		return fn(t)
	}
}

// AfterMsg asks the root to hand Msg back to the room after In, on the
// screen's Timer: a room never starts a timer of its own.
type AfterMsg struct {
	In  time.Duration
	Msg tea.Msg
}

// After is a Cmd that has the root hand msg back to the room after d.
func After(d time.Duration, msg tea.Msg) tea.Cmd {
	return func() tea.Msg { return AfterMsg{In: d, Msg: msg} }
}
