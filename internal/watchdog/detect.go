package watchdog

import (
	"fmt"
	"strconv"
	"time"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Mark is a runaway found on a session, with the evidence a person needs
// to judge it.
type Mark struct {
	Kind  Kind
	Since int64 // Unix ms the mark was set
	// Evidence: the repeated call, the quiet time, the spend, the failures.
	Evidence string
}

// callKey identifies a call for loop detection: the tool and its input.
type callKey struct{ tool, input string }

// detectLoop looks at the last window calls whose input is known: the
// same call n times in a row at the end, or n times anywhere in the window.
// The window is small, so counting by comparison beats a map.
func detectLoop(tools []model.ToolCall, n, window int) (string, bool) {
	var buf [32]callKey
	keys := buf[:0]
	for i := len(tools) - 1; i >= 0 && len(keys) < window; i-- {
		t := &tools[i]
		if t.Input == "" && t.Status == model.ToolPending {
			continue // its input is not known yet
		}
		keys = append(keys, callKey{t.Tool, t.Input}) // newest first
	}
	if len(keys) < n {
		return "", false
	}
	run := 1
	for run < len(keys) && keys[run] == keys[0] {
		run++
	}
	if run >= n {
		return fmt.Sprintf("%s %s %d times in a row", keys[0].tool, quoteInput(keys[0].input), run), true
	}
	for i := 0; i+n <= len(keys); i++ {
		c := 1
		for j := i + 1; j < len(keys); j++ {
			if keys[j] == keys[i] {
				c++
			}
		}
		if c >= n {
			return fmt.Sprintf("%s %s %d times in the last %d calls", keys[i].tool, quoteInput(keys[i].input), c, len(keys)), true
		}
	}
	return "", false
}

func quoteInput(s string) string {
	if s == "" {
		return "(no input)"
	}
	return strconv.Quote(s)
}

// detectErrors counts the failed calls at the end of the ended ones.
func detectErrors(tools []model.ToolCall, n int) (string, bool) {
	failed := 0
	last := ""
	for i := len(tools) - 1; i >= 0; i-- {
		t := &tools[i]
		if !t.Ended() {
			continue
		}
		if t.Status != model.ToolError {
			break
		}
		if failed == 0 {
			last = t.Tool
			if t.Error != "" {
				last += ": " + t.Error
			}
		}
		failed++
	}
	if failed < n {
		return "", false
	}
	return fmt.Sprintf("%d failed tool calls in a row; last: %s", failed, last), true
}

// detectStall: busy (not retrying, not waiting on the person), no tool
// call running, and nothing heard for longer than limit. A running tool
// (a long bash command, a subagent) or streaming text is never a stall.
func detectStall(st *model.State, ss *model.Session, quietMS int64, limit time.Duration) (string, bool) {
	if ss.Run() != wire.StatusBusy || st.StateOf(ss.ID).Kind == model.KindWaiting {
		return "", false
	}
	if st.Counts(ss.ID).ToolsRunning > 0 {
		return "", false
	}
	if quietMS < limit.Milliseconds() {
		return "", false
	}
	q := time.Duration(quietMS) * time.Millisecond
	return fmt.Sprintf("quiet for %s with no tool call running", q.Round(time.Second)), true
}

// detectBudget checks the session's own spend, and a root's whole tree's.
func detectBudget(st *model.State, ss *model.Session, c Config) (string, bool) {
	if c.BudgetTokens <= 0 && c.BudgetCost <= 0 {
		return "", false
	}
	own := model.Counts{Tokens: ss.Tokens, Cost: ss.Cost, Unpriced: ss.OwnCost().Unpriced}
	if msg, ok := overBudget(own, c, "spent"); ok {
		return msg, true
	}
	if ss.ParentID == "" {
		return overBudget(st.Counts(ss.ID), c, "its tree spent")
	}
	return "", false
}

func overBudget(t model.Counts, c Config, who string) (string, bool) {
	if c.BudgetTokens > 0 && t.Tokens > c.BudgetTokens {
		return fmt.Sprintf("%s %.0f tokens, over the cap of %.0f", who, t.Tokens, c.BudgetTokens), true
	}
	// The cost cap judges what is priced: a cost that leaves unpriced
	// replies out is a lower bound, so over the cap it is surely over,
	// and the mark says so ("≥$2.60"). What no reply prices is never
	// taken as $0 of the cap, nor guessed: --budget-tokens caps it.
	if cost := t.SubtreeCost(); c.BudgetCost > 0 && cost.USD > c.BudgetCost {
		return fmt.Sprintf("%s %s, over the cap of %s", who, cost.Text(dollars), dollars(c.BudgetCost)), true
	}
	return "", false
}

// dollars writes an amount as the budget's marks say it.
func dollars(v float64) string { return fmt.Sprintf("$%.2f", v) }
