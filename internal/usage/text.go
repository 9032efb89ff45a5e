package usage

import (
	"fmt"
	"strconv"
	"strings"
)

// Columns are the figures' column heads, in the order Cells gives them.
var Columns = []string{"sessions", "replies", "input", "output", "reasoning", "cache read", "cache write", "cost"}

// Cells are f's figures as text, tokens written by tok (whole numbers
// for a script, short ones for a narrow screen).
func Cells(f Figures, tok func(float64) string) []string {
	t := f.Tokens
	return []string{strconv.Itoa(f.Sessions), strconv.Itoa(f.Replies), tok(t.Input), tok(t.Output),
		tok(t.Reasoning), tok(t.CacheRead), tok(t.CacheWrite), CostText(f)}
}

// CostText is a cost as a person reads it (model.Cost.Text): "$0.0123";
// "≥$0.0123" when some replies' cost was not reported; "n/a" when none
// was.
func CostText(f Figures) string { return f.TotalCost().Text(Dollars) }

// Dollars writes an amount in USD to a hundredth of a cent.
func Dollars(v float64) string { return fmt.Sprintf("$%.4f", v) }

// BadLine says plainly what ended badly used: "Ended badly: $0.0400 of
// $0.1000, 5200 tokens: failed $0.0100 (1 session), interrupted $0.0300
// (2 sessions)." Tokens are written by tok. Aborted work is not in it
// (AbortedLine).
func (l Report) BadLine(tok func(float64) string) string {
	bad := l.Bad()
	if bad.Replies == 0 {
		return "Nothing that ended badly (failed, interrupted, denied) used anything."
	}
	var parts []string
	for _, e := range badEnds() {
		f := l.Ends[e]
		if f.Replies == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s)", e, CostText(f), Plural(f.Sessions, "session")))
	}
	return fmt.Sprintf("Ended badly: %s of %s, %s tokens: %s.", CostText(bad), CostText(l.Total),
		tok(bad.Tokens.Sum()), strings.Join(parts, ", "))
}

// AbortedLine says what the sessions someone stopped used, neither done
// nor failed: "Aborted (stopped by someone): $0.0300 of $0.1000, 900
// tokens (2 sessions)." It is "" when they used nothing.
func (l Report) AbortedLine(tok func(float64) string) string {
	a := l.Aborted()
	if a.Replies == 0 {
		return ""
	}
	return fmt.Sprintf("Aborted (stopped by someone): %s of %s, %s tokens (%s).", CostText(a), CostText(l.Total),
		tok(a.Tokens.Sum()), Plural(a.Sessions, "session"))
}

// UnpricedLine says how many replies have no cost, or "" when all do.
func (l Report) UnpricedLine() string {
	if l.Total.Unpriced == 0 {
		return ""
	}
	return fmt.Sprintf("Cost not reported for %d of %s (the server gave 0 for tokens used: it has no price for the model): "+
		"their tokens are counted, their cost is missing, not $0.", l.Total.Unpriced, Plural(l.Total.Replies, "reply"))
}

// Plural is "1 reply", "3 replies", "2 sessions".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "y") {
		return strconv.Itoa(n) + " " + strings.TrimSuffix(word, "y") + "ies"
	}
	return strconv.Itoa(n) + " " + word + "s"
}
