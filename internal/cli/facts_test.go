package cli

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestEveryOutputTellsTheSameStory reads a fan-out recorded on a real
// OpenCode 1.18.33 (facts_fixture_test.go says how to record it again),
// with one child for each hard case, through every output of octop, and
// checks what each says of each session against one table of expected
// facts (factsTable): its state and reason, whether it is bad, its runs
// and times, its calls' outcomes, whether its cost is known, and which
// filters keep it. The one-line reason for a person has no table: every
// output that gives it must give the same one.
//
// A new output joins the list factsOutputs: one more extractor that
// reads the output and says, in the table's words, what it states.
func TestEveryOutputTellsTheSameStory(t *testing.T) {
	withConfig(t, "")
	f := loadFacts(t)
	want, names := factsWants(t, f)
	details := map[string]map[string]string{} // session → output → detail
	for _, o := range factsOutputs {
		said := o.says(t, f)
		t.Run(strings.ReplaceAll(o.name, " ", "_"), func(t *testing.T) {
			checkClaims(t, o, said, want, names)
		})
		for _, s := range said {
			if s.fact == factDetail {
				if details[s.session] == nil {
					details[s.session] = map[string]string{}
				}
				details[s.session][o.name] = s.claim.word
			}
		}
	}
	for id, by := range details {
		if len(slices.Compact(slices.Sorted(maps.Values(by)))) > 1 {
			t.Errorf("%s: the outputs give different reasons: %v", names[id], by)
		}
	}
}

// factsOutput is one of octop's outputs read back: says runs it over the
// facts recording and tells, in the table's words, what it states of each
// session. covers are the facts it must state of every session.
type factsOutput struct {
	name   string
	covers []fact
	says   func(t *testing.T, f factsRecording) []statement
}

// factsOutputs are every output the test reads.
var factsOutputs = []factsOutput{
	{"screen", []fact{factState, factDuration, factCalls, factCost, factSpent, factSubtreeCost}, screenSays},
	{"screen, live through the restart", []fact{factState, factDuration, factCalls, factCost, factSpent, factSubtreeCost},
		liveScreenSays},
	{"tree --json", []fact{factState, factReason, factStarted, factEnded, factDuration, factRuns, factCalls,
		factCost, factUnpriced, factSpent, factSubtreeCost, factSubtreeUnpriced, factSubtreeSpent}, treeSays},
	{"log --json", []fact{factCalls}, logSays},
	{"watch --json", []fact{factState, factReason, factSubtreeCost, factSubtreeUnpriced}, watchSays},
	{"usage --json", nil, usageSays},
	{"spans", []fact{factState, factBad, factStarted, factEnded, factDuration, factRuns, factCalls,
		factCost, factUnpriced, factSpent, factNests}, spansSays},
}

// fact names one thing an output may say of a session ("" the session
// of the whole recording: its counts).
type fact string

// The facts. A filter's is "filter: LINE" (filterFact).
const (
	factState           fact = "state"  // the end word
	factReason          fact = "reason" // why, as a word ("-" for none)
	factDetail          fact = "detail" // why, one line for a person
	factBad             fact = "bad"    // "bad" or "fine"
	factStarted         fact = "started"
	factEnded           fact = "ended"
	factDuration        fact = "duration" // the sum of its runs
	factRuns            fact = "runs"     // each run's start and end
	factCalls           fact = "calls"    // callWords of its calls' outcomes
	factCost            fact = "cost"     // priced, partly (priced) or unpriced
	factUnpriced        fact = "unpriced replies"
	factSpent           fact = "spent" // what its priced replies cost; n/a when none is
	factSubtreeCost     fact = "subtree cost"
	factSubtreeUnpriced fact = "subtree unpriced replies"
	factSubtreeSpent    fact = "subtree spent"
	factNests           fact = "nests" // its spans lie in its parent's task call's
	factBadCount        fact = "bad sessions"
	factEndedAs         fact = "sessions ended " // + the end word
)

// filterFact is whether the filter line keeps a session: "kept" or
// "left out".
func filterFact(line string) fact { return fact("filter: " + line) }

// statement is what an output says of one fact of one session (by id);
// where says in which part of the output, when it has several.
type statement struct {
	session string
	fact    fact
	claim   claim
	where   string
}

// claim is what is said: a word, or numbers (times in Unix ms or ms,
// amounts in USD), each known to lie in a window, as precisely as the
// output gives it: "21s" is [21000, 22000), "$0.0010" [0.00095, 0.00105].
type claim struct {
	word string
	in   []window
	// shown is the text the numbers were read from, for the messages.
	shown string
}

// window holds x when lo <= x < hi; a window with lo == hi holds lo alone.
type window struct{ lo, hi float64 }

func exact(x float64) window { return window{x, x} }

func (w window) holds(x float64) bool {
	const eps = 1e-9
	if w.lo == w.hi {
		return math.Abs(x-w.lo) < eps
	}
	return x >= w.lo-eps && x < w.hi
}

func word(w string) claim                       { return claim{word: w} }
func numbers(ws ...window) claim                { return claim{in: ws} }
func says(id string, f fact, c claim) statement { return statement{session: id, fact: f, claim: c} }

// in marks statements as read from one part of an output.
func in(where string, said []statement) []statement {
	for i := range said {
		said[i].where = where
	}
	return said
}

func (c claim) String() string {
	if c.shown != "" {
		return fmt.Sprintf("%q", c.shown)
	}
	if c.in == nil {
		return fmt.Sprintf("%q", c.word)
	}
	var parts []string
	for _, w := range c.in {
		if w.lo == w.hi {
			parts = append(parts, num(w.lo))
		} else {
			parts = append(parts, "["+num(w.lo)+", "+num(w.hi)+")")
		}
	}
	return strings.Join(parts, " ")
}

// num writes a time or an amount as it is, without an exponent.
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// agrees says whether said matches the table's want (exact numbers).
func (want claim) agrees(said claim) bool {
	if want.in == nil || said.in == nil {
		return want.word == said.word && (want.in == nil) == (said.in == nil)
	}
	if len(want.in) != len(said.in) {
		return false
	}
	for i, w := range want.in {
		if !said.in[i].holds(w.lo) {
			return false
		}
	}
	return true
}

// checkClaims compares what one output said with the table, and fails
// for each fact of its covers it did not state.
func checkClaims(t *testing.T, o factsOutput, said []statement, want map[string]map[fact]claim, names map[string]string) {
	stated := map[string]map[fact]bool{}
	for _, s := range said {
		if stated[s.session] == nil {
			stated[s.session] = map[fact]bool{}
		}
		stated[s.session][s.fact] = true
		if s.fact == factDetail {
			continue
		}
		w, ok := want[s.session][s.fact]
		if !ok {
			t.Errorf("%s states %q of %s, which the table does not hold", o.name, s.fact, names[s.session])
			continue
		}
		if !w.agrees(s.claim) {
			where := ""
			if s.where != "" {
				where = " (" + s.where + ")"
			}
			t.Errorf("%s: %s%s: says %s, the table %s", names[s.session], s.fact, where, s.claim, w)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(want)) {
		if id == "" {
			continue
		}
		for _, f := range o.covers {
			if !stated[id][f] {
				t.Errorf("%s: %s says nothing of its %s", names[id], o.name, f)
			}
		}
	}
}
