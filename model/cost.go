package model

// Unpriced says a reply's cost is unknown: it used tokens and the server
// reported no cost for them. OpenCode writes a cost of 0 when it has no
// price for the model, so 0 for tokens used is not $0; a reply that used
// no tokens had nothing to price. This is the one rule: the model's
// counts, `octop usage` and the $ room, `tree --json` and the spans all
// read it.
func Unpriced(tokens, cost float64) bool { return tokens > 0 && cost <= 0 }

// Cost is what some replies cost as far as the server priced them.
type Cost struct {
	// USD adds up the priced replies' cost.
	USD float64
	// Unpriced counts the replies that used tokens with no cost reported:
	// USD leaves them out, so it is then a lower bound.
	Unpriced int
}

// Known says some of the cost is known: every reply is priced, or a
// priced one cost something. A cost of which nothing is known is "n/a"
// and null, never $0.
func (c Cost) Known() bool { return c.Unpriced == 0 || c.USD > 0 }

// Exact says every reply is priced: USD is the whole cost.
func (c Cost) Exact() bool { return c.Unpriced == 0 }

// Text is the cost as a person reads it, amounts written by dollars:
// "$0.0123" when every reply is priced, "≥$0.0123" when some are not (the
// known part is a lower bound), "n/a" when nothing is priced.
func (c Cost) Text(dollars func(float64) string) string {
	switch {
	case c.Exact():
		return dollars(c.USD)
	case !c.Known():
		return "n/a"
	}
	return "≥" + dollars(c.USD)
}

// JSON is the cost as JSON gives it, beside the count of unpriced
// replies: nil (null) when nothing is priced, else the known sum.
func (c Cost) JSON() *float64 {
	if !c.Known() {
		return nil
	}
	v := c.USD
	return &v
}

// OwnCost is the session's own cost and its count of unpriced replies. A
// session whose history is not read yet counts at least one unpriced
// reply when its server's totals say it used tokens with no cost.
func (ss *Session) OwnCost() Cost { return Cost{USD: ss.Cost, Unpriced: int(ss.unpriced)} }

// SubtreeCost is Cost and Unpriced together: the session's and all its
// descendants' cost (State.Counts).
func (c Counts) SubtreeCost() Cost { return Cost{USD: c.Cost, Unpriced: c.Unpriced} }
