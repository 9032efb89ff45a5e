package cli

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/internal/config"
	"github.com/octop-dev/octop/ui/history"
)

// historyFlags say how the screen reads the histories of a server with
// many sessions: past --lazy-after sessions, those not updated within
// --history-window are read only when wanted, and those beyond what is
// shown go at --history-rate (history.Policy).
type historyFlags struct {
	lazyAfter int
	window    windowFlag
	rate      int
}

// register adds the flags to fs, with their defaults (history.DefaultPolicy).
func (f *historyFlags) register(fs *pflag.FlagSet) {
	f.window = windowFlag(history.DefaultPolicy.Window)
	fs.IntVar(&f.lazyAfter, "lazy-after", history.DefaultPolicy.LazyAfter,
		"with more than N sessions, read the history of one not updated within --history-window only when its row is in view or selected, or a sort or filter needs it (0: read every history)")
	fs.Var(&f.window, "history-window", "with --lazy-after, the histories read without being asked: those updated within DURATION (7d, 36h)")
	fs.IntVar(&f.rate, "history-rate", history.DefaultPolicy.Rate,
		"read at most N histories a second beyond what is shown (the rows in view and the selection are read at once; 0: no limit)")
}

// policy checks the flags; its error is one line naming the flag.
func (f historyFlags) policy() (history.Policy, error) {
	if f.lazyAfter < 0 {
		return history.Policy{}, fmt.Errorf("--lazy-after must not be negative, not %d (0 reads every history)", f.lazyAfter)
	}
	if f.rate < 0 {
		return history.Policy{}, fmt.Errorf("--history-rate must not be negative, not %d (0 reads as fast as the server answers)", f.rate)
	}
	return history.Policy{LazyAfter: f.lazyAfter, Window: time.Duration(f.window), Rate: f.rate}, nil
}

// windowFlag is a span of time given as a duration or in days (7d).
type windowFlag time.Duration

func (w *windowFlag) String() string { return config.FormatWindow(time.Duration(*w)) }

func (w *windowFlag) Set(s string) error {
	d, err := config.ParseWindow(s)
	if err != nil {
		return err
	}
	*w = windowFlag(d)
	return nil
}

// Type names the value for its errors: its own, not a Go duration's.
func (w *windowFlag) Type() string { return "window" }
