// Package usage adds up what sessions spent, as `octop usage` prints it
// and the screen's $ room shows it: tokens (input, output, reasoning,
// cache read, cache write) and cost, grouped by agent, model, root, day or
// how the session ended, with what ended badly said plainly.
//
// Every figure is a reply's own (an assistant message's totals, or, while
// it has none, the sum of its step-finish parts, as `octop tree --json`
// counts them), so the total of any grouping is the sum of the replies'
// figures. A reply that used tokens but for which the server reported a
// cost of 0 is unpriced: OpenCode writes 0 when it has no price for the
// model (model.Unpriced is the rule). Its tokens count; its cost stays
// missing and is counted as such, never taken as $0: JSON writes a cost
// of which nothing is priced as null.
//
// The package is pure (no I/O, no clock): the command line and the screen
// hand it the sessions and messages they read.
package usage

import (
	"encoding/json"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Tokens splits tokens the way the server counts them.
type Tokens struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	Reasoning  float64 `json:"reasoning"`
	CacheRead  float64 `json:"cache_read"`
	CacheWrite float64 `json:"cache_write"`
}

// TokensOf is the server's token counts in this split.
func TokensOf(w wire.Tokens) Tokens {
	return Tokens{Input: w.Input, Output: w.Output, Reasoning: w.Reasoning, CacheRead: w.Cache.Read, CacheWrite: w.Cache.Write}
}

// Add adds o to t.
func (t *Tokens) Add(o Tokens) {
	t.Input += o.Input
	t.Output += o.Output
	t.Reasoning += o.Reasoning
	t.CacheRead += o.CacheRead
	t.CacheWrite += o.CacheWrite
}

// Sum is every token counted once.
func (t Tokens) Sum() float64 {
	return t.Input + t.Output + t.Reasoning + t.CacheRead + t.CacheWrite
}

// Reply is what one assistant message used.
type Reply struct {
	Tokens Tokens
	// Cost is the server's figure in USD; 0 when it reported none.
	Cost float64
	// Priced says the server reported a cost: a nonzero one, or a reply
	// that used no tokens (nothing to price); see model.Unpriced.
	Priced bool
}

// ReplyOf reads an assistant message's figures: its own totals when the
// server sent them, else the sum of its step-finish parts (never both).
// ok is false for any other message.
func ReplyOf(m *wire.MessageWithParts) (r Reply, ok bool) {
	if m.Info.Role != "assistant" {
		return Reply{}, false
	}
	if m.Info.Tokens.Sum() > 0 || m.Info.Cost > 0 {
		r.Tokens, r.Cost = TokensOf(m.Info.Tokens), m.Info.Cost
	} else {
		for i := range m.Parts {
			p := &m.Parts[i]
			if p.Type != wire.PartStepFinish {
				continue
			}
			if p.Tokens != nil {
				r.Tokens.Add(TokensOf(*p.Tokens))
			}
			r.Cost += p.Cost
		}
	}
	r.Priced = !model.Unpriced(r.Tokens.Sum(), r.Cost)
	return r, true
}

// Figures add up replies.
type Figures struct {
	// Sessions counts the sessions whose replies are in.
	Sessions int `json:"sessions"`
	// Replies counts the assistant messages.
	Replies int    `json:"replies"`
	Tokens  Tokens `json:"tokens"`
	// Cost adds up the priced replies' cost (USD); JSON writes null
	// when nothing is priced (see MarshalJSON).
	Cost float64 `json:"cost"`
	// Unpriced counts replies that used tokens with no cost reported:
	// Cost leaves them out.
	Unpriced int `json:"unpriced_replies"`
}

// TotalCost is the figures' cost beside their count of unpriced replies.
func (f Figures) TotalCost() model.Cost { return model.Cost{USD: f.Cost, Unpriced: f.Unpriced} }

// figuresJSON is Figures as JSON writes them: "cost" is null when
// nothing is priced, never a made-up 0 (model.Cost.JSON).
type figuresJSON struct {
	Sessions int      `json:"sessions"`
	Replies  int      `json:"replies"`
	Tokens   Tokens   `json:"tokens"`
	Cost     *float64 `json:"cost"`
	Unpriced int      `json:"unpriced_replies"`
}

func (f Figures) json() figuresJSON {
	return figuresJSON{Sessions: f.Sessions, Replies: f.Replies, Tokens: f.Tokens, Cost: f.TotalCost().JSON(), Unpriced: f.Unpriced}
}

// MarshalJSON writes the figures with "cost" null when nothing is priced.
func (f Figures) MarshalJSON() ([]byte, error) { return json.Marshal(f.json()) }

// Add counts one reply.
func (f *Figures) Add(r Reply) {
	f.Replies++
	f.Tokens.Add(r.Tokens)
	f.Cost += r.Cost
	if !r.Priced {
		f.Unpriced++
	}
}

// Plus adds o to f.
func (f *Figures) Plus(o Figures) {
	f.Sessions += o.Sessions
	f.Replies += o.Replies
	f.Tokens.Add(o.Tokens)
	f.Cost += o.Cost
	f.Unpriced += o.Unpriced
}
