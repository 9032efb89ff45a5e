package cli

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// expected is what is true of one session of the facts recording: the
// table every output is checked against. It is written from what the
// recorder did (internal/dev/record's facts.go), not from what octop
// derives.
type expected struct {
	title  string // the beginning of its title, to find it
	state  string // the end word (model/words.go)
	reason string // why, as a word; "" when there is none
	bad    bool   // failed, interrupted or denied; aborted is not bad
	// runs are its runs, from the recording's own times: no idle gap
	// between two is part of any.
	runs func(l landmarks) []runTimes
	// calls counts its tool calls by outcome: pending, running,
	// completed, error, aborted or interrupted.
	calls map[string]int
	// unpriced counts its replies that used tokens with no cost; all
	// says no reply of it was priced (its cost is unknown, not $0).
	// subtreeUnpriced and subtreeAll are the same over its subtree.
	unpriced, subtreeUnpriced int
	all, subtreeAll           bool
	// matches are the filter lines (as typed after /) that keep it; "<id>"
	// stands for its id. Every line of the table keeps exactly the
	// sessions that list it.
	matches []string
}

// runTimes is one run of a session: from its prompt to its end (Unix ms).
type runTimes struct{ start, end int64 }

// The sessions by their titles.
const (
	tRoot        = "every hard case"
	tCompleted   = "worker 1 completes"
	tFailed      = "worker 2 fails"
	tAborted     = "worker 3 is aborted"
	tInterrupted = "worker 4 is interrupted"
	tResumed     = "worker 5 is resumed"
	tBackground  = "worker 6 runs in the background"
	tUnpriced    = "worker 10 is unpriced"
)

// factsTable is the table of expected facts.
var factsTable = []expected{
	{title: tRoot, state: "interrupted", reason: "interrupted", bad: true,
		// Its run was cut by the server's death while it waited on worker
		// 4: it ends where worker 4 was last seen, never before a child.
		runs:    func(l landmarks) []runTimes { return []runTimes{{l.prompt(tRoot, 1), l.lastSeen(tInterrupted)}} },
		calls:   map[string]int{"completed": 4, "error": 1, "aborted": 1, "interrupted": 1},
		matches: []string{"every hard case", "is:failed"}, subtreeUnpriced: 2},
	{title: tCompleted, state: "complete", runs: oneRun(tCompleted), calls: map[string]int{"completed": 1},
		matches: []string{"worker 1", "worker 1 completes @general", "is:done"}},
	{title: tFailed, state: "failed", reason: "APIError", bad: true, runs: oneRun(tFailed),
		calls: map[string]int{}, matches: []string{"is:failed"}},
	{title: tAborted, state: "aborted", reason: "aborted", runs: oneRun(tAborted),
		// Its bash call was cut by the abort: 1.18 stores it completed,
		// exit null, "User aborted the command".
		calls: map[string]int{"aborted": 1}, matches: []string{"<id>", "is:aborted"}},
	{title: tInterrupted, state: "interrupted", reason: "interrupted", bad: true,
		runs:  func(l landmarks) []runTimes { return []runTimes{{l.prompt(tInterrupted, 1), l.lastSeen(tInterrupted)}} },
		calls: map[string]int{"completed": 3, "interrupted": 1}, matches: []string{"is:failed"}},
	{title: tResumed, state: "complete", calls: map[string]int{"completed": 2}, matches: []string{"is:done"},
		runs: func(l landmarks) []runTimes {
			return []runTimes{{l.prompt(tResumed, 1), l.answered(tResumed, 1)}, {l.prompt(tResumed, 2), l.answered(tResumed, 2)}}
		}},
	{title: tBackground, state: "complete", runs: oneRun(tBackground), calls: map[string]int{"completed": 1},
		matches: []string{"is:done"}},
	{title: tUnpriced, state: "complete", runs: oneRun(tUnpriced), calls: map[string]int{"completed": 1},
		unpriced: 2, subtreeUnpriced: 2, all: true, subtreeAll: true,
		matches: []string{"unpriced", "@unpriced", "worker 10 is unpriced @unpriced", "is:done"}},
}

// oneRun is a session's one run: its prompt to its answer.
func oneRun(title string) func(landmarks) []runTimes {
	return func(l landmarks) []runTimes { return []runTimes{{l.prompt(title, 1), l.answered(title, 1)}} }
}

// landmarks are times read straight from the recording's messages (the
// REST view at its end), as a person reading them would.
type landmarks struct {
	t    *testing.T
	view map[string][]wire.MessageWithParts
	ids  map[string]string // title prefix → id
}

func (l landmarks) msgs(title string) []wire.MessageWithParts {
	id, ok := l.ids[title]
	if !ok {
		l.t.Fatalf("no session titled %q in the table", title)
	}
	return l.view[id]
}

// prompts are the indexes of a session's prompts: its user messages
// that a person (or a parent) wrote, not the server's notices.
func (l landmarks) prompts(title string) []int {
	var out []int
	for i, m := range l.msgs(title) {
		synthetic := slices.ContainsFunc(m.Parts, func(p wire.Part) bool { return p.Synthetic })
		if m.Info.Role == "user" && !synthetic {
			out = append(out, i)
		}
	}
	return out
}

// prompt is when the session's nth prompt (1 the first) was sent.
func (l landmarks) prompt(title string, n int) int64 {
	ps := l.prompts(title)
	if n > len(ps) {
		l.t.Fatalf("%s has %d prompts, not %d", title, len(ps), n)
	}
	return l.msgs(title)[ps[n-1]].Info.Time.Created
}

// answered is when the last reply to the nth prompt was completed.
func (l landmarks) answered(title string, n int) int64 {
	ps, msgs := l.prompts(title), l.msgs(title)
	end := len(msgs)
	if n < len(ps) {
		end = ps[n]
	}
	var at int64
	for _, m := range msgs[ps[n-1]:end] {
		if m.Info.Role == "assistant" {
			at = m.Info.Time.Completed
		}
	}
	if at == 0 {
		l.t.Fatalf("%s: no completed reply to prompt %d", title, n)
	}
	return at
}

// lastSeen is the newest time anywhere in the session's messages: for a
// run the server's death cut, the last sign of it.
func (l landmarks) lastSeen(title string) int64 {
	var at int64
	for _, m := range l.msgs(title) {
		at = max(at, m.Info.Time.Created, m.Info.Time.Completed)
		for _, p := range m.Parts {
			if p.State != nil {
				at = max(at, p.State.Time.Start, p.State.Time.End)
			}
			if p.Time != nil {
				at = max(at, p.Time.Start, p.Time.End)
			}
		}
	}
	return at
}

// spent is what the session's priced replies cost, as the server wrote.
func (l landmarks) spent(title string) float64 {
	var sum float64
	for _, m := range l.msgs(title) {
		sum += m.Info.Cost
	}
	return sum
}

// callWords is a count of calls by outcome as one line: "aborted:1
// completed:4"; "none" for no call.
func callWords(calls map[string]int) string {
	var out []string
	for k, n := range calls {
		if n > 0 {
			out = append(out, fmt.Sprintf("%s:%d", k, n))
		}
	}
	if len(out) == 0 {
		return "none"
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// factsWants is the table as claims: every fact of every session (by
// id), the recording's counts under "", and each session's title.
func factsWants(t *testing.T, f factsRecording) (map[string]map[fact]claim, map[string]string) {
	t.Helper()
	l := landmarks{t: t, view: f.end.Messages, ids: map[string]string{}}
	names := map[string]string{"": "the recording"}
	for _, e := range factsTable {
		s := byTitle(t, f.end, e.title)
		l.ids[e.title], names[s.ID] = s.ID, e.title
	}
	if len(f.end.Sessions) != len(factsTable) {
		t.Fatalf("the recording holds %d sessions, the table %d", len(f.end.Sessions), len(factsTable))
	}
	want := map[string]map[fact]claim{"": {}}
	lines := map[string]bool{}
	for _, e := range factsTable {
		for _, m := range e.matches {
			lines[strings.ReplaceAll(m, "<id>", l.ids[e.title])] = true
		}
	}
	bad, ended, unpriced, spent := 0, map[string]int{}, 0, 0.0
	for _, e := range factsTable {
		id := l.ids[e.title]
		w := sessionWants(e, l)
		w[factSubtreeCost] = word(costWord(e.subtreeUnpriced, e.subtreeAll))
		w[factSubtreeUnpriced] = word(fmt.Sprint(e.subtreeUnpriced))
		w[factSubtreeSpent] = spentClaim(subtreeSpent(f, l, id), e.subtreeAll)
		for line := range lines {
			w[filterFact(line)] = word("left out")
		}
		for _, m := range e.matches {
			w[filterFact(strings.ReplaceAll(m, "<id>", id))] = word("kept")
		}
		want[id] = w
		if e.bad {
			bad++
		}
		ended[e.state]++
		unpriced += e.unpriced
		spent += l.spent(e.title)
	}
	want[""][factBadCount] = word(fmt.Sprint(bad))
	for _, w := range []string{"complete", "failed", "aborted", "interrupted", "denied", "running"} {
		want[""][factEndedAs+fact(w)] = word(fmt.Sprint(ended[w]))
	}
	want[""][factUnpriced] = word(fmt.Sprint(unpriced))
	want[""][factSpent] = numbers(exact(spent))
	return want, names
}

// sessionWants are the facts of one session that are its own.
func sessionWants(e expected, l landmarks) map[fact]claim {
	w := map[fact]claim{
		factState: word(e.state), factReason: word(e.reason), factBad: word("fine"),
		factCalls: word(callWords(e.calls)), factCost: word(costWord(e.unpriced, e.all)),
		factUnpriced: word(fmt.Sprint(e.unpriced)), factSpent: spentClaim(l.spent(e.title), e.all),
		factNests: word("yes"),
	}
	if e.reason == "" {
		w[factReason] = word("-")
	}
	if e.bad {
		w[factBad] = word("bad")
	}
	runs := e.runs(l)
	var all []window
	var sum int64
	for _, r := range runs {
		all = append(all, exact(float64(r.start)), exact(float64(r.end)))
		sum += r.end - r.start
	}
	w[factRuns] = numbers(all...)
	w[factStarted] = numbers(exact(float64(runs[0].start)))
	w[factEnded] = numbers(exact(float64(runs[len(runs)-1].end)))
	w[factDuration] = numbers(exact(float64(sum)))
	return w
}

// costWord says whether a cost is known: priced (every reply that used
// tokens has a cost), partly (some have none: the sum leaves them out)
// or unpriced (none has: the cost is unknown).
func costWord(unpriced int, all bool) string {
	switch {
	case all:
		return "unpriced"
	case unpriced > 0:
		return "partly"
	}
	return "priced"
}

// spentClaim is a known sum, or n/a when nothing was priced.
func spentClaim(sum float64, none bool) claim {
	if none {
		return word("n/a")
	}
	return numbers(exact(sum))
}

// subtreeSpent is what the priced replies of id's subtree cost.
func subtreeSpent(f factsRecording, l landmarks, id string) float64 {
	sum := 0.0
	for _, e := range factsTable {
		sid := l.ids[e.title]
		for cur := sid; cur != ""; cur = parentOf(f, cur) {
			if cur == id {
				sum += l.spent(e.title)
				break
			}
		}
	}
	return sum
}

func parentOf(f factsRecording, id string) string {
	for _, s := range f.end.Sessions {
		if s.ID == id {
			return s.ParentID
		}
	}
	return ""
}
