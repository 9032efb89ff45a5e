package room

import (
	"time"

	tea "charm.land/bubbletea/v2"
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

// RealTimer waits on the system clock: Bubble Tea's own timers.
type RealTimer struct{}

// After is tea.Tick.
func (RealTimer) After(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd { return tea.Tick(d, fn) }

// Every is tea.Every.
func (RealTimer) Every(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
	return tea.Every(d, fn)
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
