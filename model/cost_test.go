package model

import (
	"fmt"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// TestUnpricedRule: tokens used with no cost is unpriced; no tokens had
// nothing to price.
func TestUnpricedRule(t *testing.T) {
	for _, c := range []struct {
		tokens, cost float64
		want         bool
	}{{315, 0, true}, {315, 0.01, false}, {0, 0, false}, {0, 0.5, false}} {
		if got := Unpriced(c.tokens, c.cost); got != c.want {
			t.Errorf("Unpriced(%v, %v) = %v, want %v", c.tokens, c.cost, got, c.want)
		}
	}
}

// TestCostWords: a cost of which nothing is known is n/a and null, a
// partly known one a lower bound, never a made-up 0.
func TestCostWords(t *testing.T) {
	dollars := func(v float64) string { return fmt.Sprintf("$%.4f", v) }
	for _, c := range []struct {
		cost Cost
		text string
		json string
	}{
		{Cost{}, "$0.0000", "0"},
		{Cost{USD: 0.0123}, "$0.0123", "0.0123"},
		{Cost{Unpriced: 2}, "n/a", "null"},
		{Cost{USD: 0.0123, Unpriced: 1}, "≥$0.0123", "0.0123"},
	} {
		j := "null"
		if v := c.cost.JSON(); v != nil {
			j = fmt.Sprint(*v)
		}
		if got := c.cost.Text(dollars); got != c.text || j != c.json {
			t.Errorf("%+v: text %q json %s, want %q %s", c.cost, got, j, c.text, c.json)
		}
	}
}

// TestUnpricedCountedAndRolledUp: each session counts its replies that
// used tokens with no cost, by message totals or by step-finish parts,
// and the subtree adds them up beside tokens and cost.
func TestUnpricedCountedAndRolledUp(t *testing.T) {
	const P, C, G = "ses_p", "ses_c", "ses_g"
	s := apply(created(P, "", "r", 1), created(C, P, "c", 2), created(G, C, "g", 3),
		userMsg(P, "msg_0", 1), asstMsg(P, "msg_1", 10, 1, 1, 2), asstMsg(P, "msg_2", 0, 0, 2, 3),
		asstMsg(C, "msg_3", 20, 0, 1, 2), asstMsg(C, "msg_4", 5, 0, 2, 3),
		step(G, "msg_5", "prt_1", 7, 0))
	for _, c := range []struct {
		id        string
		own, tree Cost
	}{
		{P, Cost{USD: 1}, Cost{USD: 1, Unpriced: 3}},
		{C, Cost{Unpriced: 2}, Cost{Unpriced: 3}},
		{G, Cost{Unpriced: 1}, Cost{Unpriced: 1}},
	} {
		if own, tree := s.Session(c.id).OwnCost(), s.Counts(c.id).SubtreeCost(); own != c.own || tree != c.tree {
			t.Errorf("%s: own %+v subtree %+v, want %+v %+v", c.id, own, tree, c.own, c.tree)
		}
	}
	// A reply priced later is no longer counted, in the subtree too.
	s.Apply(asstMsg(C, "msg_3", 20, 0.5, 1, 2))
	if own, tree := s.Session(C).OwnCost(), s.Counts(P).SubtreeCost(); own != (Cost{USD: 0.5, Unpriced: 1}) ||
		tree != (Cost{USD: 1.5, Unpriced: 2}) {
		t.Errorf("after pricing msg_3: own %+v, root's subtree %+v", own, tree)
	}
}

// TestUnpricedFromListedTotals: a session only listed (its history not
// read) whose server totals say tokens and no cost counts one unpriced
// reply, so its cost reads n/a, not $0.
func TestUnpricedFromListedTotals(t *testing.T) {
	s := New()
	s.ApplySnapshot(Snapshot{Complete: true, Sessions: []wire.Session{
		{ID: "ses_a", Title: "a", Tokens: wire.Tokens{Input: 315}, Time: wire.SessionTime{Created: 1, Updated: 1}},
		{ID: "ses_b", Title: "b", Tokens: wire.Tokens{Input: 315}, Cost: 0.2, Time: wire.SessionTime{Created: 2, Updated: 2}},
	}})
	if a, b := s.Session("ses_a").OwnCost(), s.Session("ses_b").OwnCost(); a != (Cost{Unpriced: 1}) || b != (Cost{USD: 0.2}) {
		t.Fatalf("listed: a %+v, b %+v", a, b)
	}
}

// TestSealKeepsUnpriced: a sealed session keeps its count of unpriced
// replies, and so does one opened again by a later event.
func TestSealKeepsUnpriced(t *testing.T) {
	s := apply(append(run(), asstMsg(S, "msg_3", 9, 0, 3, 4), asstMsg(S, "msg_4", 9, 0, 4, 5), status(S, "idle"))...)
	want := s.Session(S).OwnCost()
	if want.Unpriced != 3 {
		t.Fatalf("before Seal: %+v, want 3 unpriced", want)
	}
	if !s.Seal(S) {
		t.Fatal("not sealed")
	}
	if got := s.Session(S).OwnCost(); got != want {
		t.Fatalf("sealed: %+v, want %+v", got, want)
	}
	s.Apply(asstMsg(S, "msg_5", 0, 0.25, 6, 7)) // reopens it; a priced reply
	if got := s.Session(S).OwnCost(); got != (Cost{USD: 0.25, Unpriced: 3}) {
		t.Fatalf("reopened: %+v, want the 3 unpriced kept beside $0.25", got)
	}
}
