package watchdog

import (
	"fmt"
	"strings"
	"time"
)

// Kind names a runaway the watchdog detects.
type Kind string

// The runaways, in the order marks are listed.
const (
	Loop   Kind = "loop"   // the same tool with the same input, again and again
	Stall  Kind = "stall"  // busy, silent, nothing running
	Budget Kind = "budget" // tokens or cost over a cap
	Errors Kind = "errors" // failed tool calls in a row
)

// kinds lists every Kind in display order; a track's marks use the same
// indexes.
var kinds = [...]Kind{Loop, Stall, Budget, Errors}

// AllKinds lists every Kind in display order.
func AllKinds() []Kind { return kinds[:] }

// Defaults of Config.
const (
	DefaultLoop       = 5
	DefaultLoopWindow = 20
	DefaultStall      = 180 * time.Second
	DefaultErrors     = 5
)

// Config sets the detectors' thresholds. The zero value of a field means
// its default, except the budgets, which are off at zero.
type Config struct {
	// Loop is how many identical calls (same tool, same input) make a loop:
	// that many in a row, or that many within the last LoopWindow calls.
	Loop       int
	LoopWindow int
	// Stall is how long a busy session may stay silent, with no tool call
	// running, before it is marked.
	Stall time.Duration
	// BudgetTokens and BudgetCost cap a session's own spend and a root's
	// whole tree's; zero is no cap.
	BudgetTokens float64
	BudgetCost   float64
	// Errors is how many failed tool calls in a row make an error storm.
	Errors int
	// AbortOn lists the kinds that abort the offending session and its
	// subtree (once) instead of only marking it.
	AbortOn []Kind
}

func (c Config) withDefaults() Config {
	if c.Loop <= 0 {
		c.Loop = DefaultLoop
	}
	if c.LoopWindow <= 0 {
		c.LoopWindow = DefaultLoopWindow
	}
	if c.LoopWindow < c.Loop {
		c.LoopWindow = c.Loop
	}
	if c.Stall <= 0 {
		c.Stall = DefaultStall
	}
	if c.Errors <= 0 {
		c.Errors = DefaultErrors
	}
	return c
}

func (c Config) aborts(k Kind) bool {
	for _, a := range c.AbortOn {
		if a == k {
			return true
		}
	}
	return false
}

// ParseKinds reads a comma-separated list of kinds ("loop,stall"), as
// --abort-on takes it. Blank gives none.
func ParseKinds(s string) ([]Kind, error) {
	var out []Kind
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(strings.ToLower(f))
		if f == "" {
			continue
		}
		ok := false
		for _, k := range kinds {
			if Kind(f) == k {
				out = append(out, k)
				ok = true
			}
		}
		if !ok {
			return nil, fmt.Errorf("%q is not a watchdog kind; use loop, stall, budget or errors", f)
		}
	}
	return out, nil
}
