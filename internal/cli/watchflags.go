package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/internal/watchdog"
)

// watchdogFlags are the watchdog's thresholds and --abort-on, shared by
// the screen and `octop watch`.
type watchdogFlags struct {
	loop, errors        int
	stall               time.Duration
	budgetTokens        float64
	budgetCost, abortOn string
	exec                string
	hookTimeout         time.Duration
}

// register adds the watchdog's flags to fs. The help shows each default
// after its text.
func (f *watchdogFlags) register(fs *pflag.FlagSet) {
	fs.IntVar(&f.loop, "loop", watchdog.DefaultLoop, "mark a loop after the same tool call (same input) N times in a row, or N times in the last 20 calls")
	fs.DurationVar(&f.stall, "stall", watchdog.DefaultStall, "mark a stall when a busy session with no tool running is silent this long (DURATION)")
	fs.Float64Var(&f.budgetTokens, "budget-tokens", 0, "mark a session, or a root's tree, that spends over N tokens (0: no cap)")
	fs.StringVar(&f.budgetCost, "budget-cost", "", "mark a session, or a root's tree, whose priced replies cost over USD (e.g. 2.50; empty: no cap)")
	fs.IntVar(&f.errors, "errors", watchdog.DefaultErrors, "mark an error storm after N failed tool calls in a row")
	fs.StringVar(&f.abortOn, "abort-on", "", "abort the offending session and its subtree, once, on these marks: LIST of loop,stall,budget,errors (default: only mark)")
	fs.StringVar(&f.exec, "exec", "", "run CMD through the shell on every notable event, with OCTOP_EVENT, OCTOP_SESSION, … set")
	fs.DurationVar(&f.hookTimeout, "exec-timeout", 10*time.Second, "stop an --exec command that runs longer than this DURATION")
}

// config checks the flags and builds the watchdog's configuration. Its
// error is one line naming the flag.
func (f watchdogFlags) config() (watchdog.Config, error) {
	c := watchdog.Config{Loop: f.loop, Stall: f.stall, BudgetTokens: f.budgetTokens, Errors: f.errors}
	switch {
	case f.loop < 2:
		return c, fmt.Errorf("--loop must be 2 or more, not %d", f.loop)
	case f.errors < 1:
		return c, fmt.Errorf("--errors must be 1 or more, not %d", f.errors)
	case f.stall < time.Second:
		return c, fmt.Errorf("--stall must be at least 1s, not %s", f.stall)
	case f.budgetTokens < 0:
		return c, fmt.Errorf("--budget-tokens must not be negative")
	case f.hookTimeout <= 0:
		return c, fmt.Errorf("--exec-timeout must be positive")
	}
	if s := strings.TrimPrefix(strings.TrimSpace(f.budgetCost), "$"); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v < 0 {
			return c, fmt.Errorf("--budget-cost takes an amount in USD like 2.50, not %q", f.budgetCost)
		}
		c.BudgetCost = v
	}
	kinds, err := watchdog.ParseKinds(f.abortOn)
	if err != nil {
		return c, fmt.Errorf("--abort-on: %w", err)
	}
	c.AbortOn = kinds
	return c, nil
}
