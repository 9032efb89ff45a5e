package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
)

// The extractors of the JSON outputs a script reads: tree --json,
// log --json and usage --json, each run on the one fake server showing
// the recording's end.

// figures are the times and cost fields of tree --json, of a node or
// its subtree. A field left out is nil: the output says nothing of it.
type figures struct {
	Cost       json.RawMessage `json:"cost"`
	Unpriced   *int            `json:"unpriced_replies"`
	Started    *int64          `json:"started"`
	Ended      *int64          `json:"ended"`
	DurationMS *int64          `json:"duration_ms"`
	Runs       *[]struct {
		Start int64 `json:"start"`
		End   int64 `json:"end"`
	} `json:"runs"`
}

// treeNode is a node of tree --json, as the extractor reads it.
type treeNode struct {
	ID       string         `json:"id"`
	Status   string         `json:"status"`
	Reason   string         `json:"reason"`
	Error    string         `json:"error"`
	Tools    map[string]int `json:"tools"`
	Subtree  *figures       `json:"subtree"`
	Children []treeNode     `json:"children"`
	figures
}

// treeSays is what `octop tree --json` says of each session.
func treeSays(t *testing.T, f factsRecording) []statement {
	srv := f.serve(t, f.end)
	code, out, errs := run(t, client.Options{BaseURL: srv.URL()}, "", "tree", "--json")
	if code != codeOK {
		t.Fatalf("tree --json: exit %d: %s", code, errs)
	}
	var roots []treeNode
	if err := json.Unmarshal([]byte(out), &roots); err != nil {
		t.Fatalf("tree --json: %v", err)
	}
	var said []statement
	var walk func(n treeNode)
	walk = func(n treeNode) {
		said = append(said, treeNodeSays(n)...)
		for _, c := range n.Children {
			walk(c)
		}
	}
	for _, r := range roots {
		walk(r)
	}
	return said
}

func treeNodeSays(n treeNode) []statement {
	id := n.ID
	state := n.Status
	switch {
	case n.Status == "error" && (n.Reason == "aborted" || n.Reason == "interrupted" || n.Reason == "denied"):
		state = n.Reason
	case n.Status == "error":
		state = "failed"
	}
	reason := n.Reason
	if reason == "" {
		reason = "-"
	}
	said := []statement{says(id, factState, word(state)), says(id, factReason, word(reason))}
	if n.Error != "" {
		said = append(said, says(id, factDetail, word(n.Error)))
	}
	calls := map[string]int{}
	for k, v := range n.Tools {
		switch k {
		case "total":
		case "failed":
			calls["error"] += v
		default:
			calls[k] += v
		}
	}
	said = append(said, says(id, factCalls, word(callWords(calls))))
	said = append(said, figuresSay(id, n.figures, factCost, factUnpriced, factSpent)...)
	if n.Subtree != nil {
		said = append(said, figuresSay(id, *n.Subtree, factSubtreeCost, factSubtreeUnpriced, factSubtreeSpent)...)
	}
	return said
}

// figuresSay is what a node's figures say of times (its own only) and
// cost (as the three facts given).
func figuresSay(id string, g figures, cost, unpriced, spent fact) []statement {
	said := costSays(id, g.Cost, g.Unpriced, cost, unpriced, spent)
	if cost != factCost {
		return said
	}
	if g.Started != nil {
		said = append(said, says(id, factStarted, numbers(exact(float64(*g.Started)))))
	}
	if g.Ended != nil {
		said = append(said, says(id, factEnded, numbers(exact(float64(*g.Ended)))))
	}
	if g.DurationMS != nil {
		said = append(said, says(id, factDuration, numbers(exact(float64(*g.DurationMS)))))
	}
	if g.Runs != nil {
		var ws []window
		for _, r := range *g.Runs {
			ws = append(ws, exact(float64(r.Start)), exact(float64(r.End)))
		}
		said = append(said, says(id, factRuns, numbers(ws...)))
	}
	return said
}

// costSays reads a JSON cost: null is unknown (n/a), a number is the
// known sum, and unpriced_replies beside it says how many replies it
// leaves out; none beside it says none.
func costSays(id string, raw json.RawMessage, unpriced *int, cost, count, spent fact) []statement {
	if len(raw) == 0 {
		return nil
	}
	n := 0
	if unpriced != nil {
		n = *unpriced
	}
	if string(raw) == "null" {
		return []statement{says(id, cost, word("unpriced")), says(id, count, word(fmt.Sprint(n))),
			says(id, spent, word("n/a"))}
	}
	var sum float64
	if err := json.Unmarshal(raw, &sum); err != nil {
		return []statement{says(id, spent, word("not a number: "+string(raw)))}
	}
	return []statement{says(id, cost, word(costWord(n, false))), says(id, count, word(fmt.Sprint(n))),
		says(id, spent, numbers(exact(sum)))}
}

// logSays is what `octop log --json ID` says of each session's calls.
func logSays(t *testing.T, f factsRecording) []statement {
	srv := f.serve(t, f.end)
	var said []statement
	for _, s := range f.end.Sessions {
		code, out, errs := run(t, client.Options{BaseURL: srv.URL()}, "", "log", "--json", s.ID)
		if code != codeOK {
			t.Fatalf("log --json %s: exit %d: %s", s.ID, code, errs)
		}
		calls := map[string]int{}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var e struct{ Kind, Status string }
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				t.Fatalf("log --json %s: %v: %q", s.ID, err, line)
			}
			if e.Kind == "tool" {
				calls[e.Status]++
			}
		}
		said = append(said, says(s.ID, factCalls, word(callWords(calls))))
	}
	return said
}

// usageSays is what `octop usage --by end --json` says of the recording
// as a whole: how many sessions ended each way, how many ended badly,
// and the replies' cost.
func usageSays(t *testing.T, f factsRecording) []statement {
	srv := f.serve(t, f.end)
	code, out, errs := run(t, client.Options{BaseURL: srv.URL()}, "", "usage", "--by", "end", "--json")
	if code != codeOK {
		t.Fatalf("usage --json: exit %d: %s", code, errs)
	}
	type group struct {
		Sessions int             `json:"sessions"`
		Cost     json.RawMessage `json:"cost"`
		Unpriced *int            `json:"unpriced_replies"`
	}
	var u struct {
		Total      group            `json:"total"`
		Ends       map[string]group `json:"ends"`
		EndedBadly group            `json:"ended_badly"`
	}
	if err := json.Unmarshal([]byte(out), &u); err != nil {
		t.Fatalf("usage --json: %v", err)
	}
	said := []statement{says("", factBadCount, word(fmt.Sprint(u.EndedBadly.Sessions)))}
	for _, w := range []string{"complete", "failed", "aborted", "interrupted", "denied", "running"} {
		said = append(said, says("", factEndedAs+fact(w), word(fmt.Sprint(u.Ends[w].Sessions))))
	}
	for _, s := range costSays("", u.Total.Cost, u.Total.Unpriced, "", factUnpriced, factSpent) {
		if s.fact != "" {
			said = append(said, s)
		}
	}
	return said
}
