package usage

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// reply is an assistant message with its own totals.
func reply(id, agent, provider, modelID string, created int64, tok wire.Tokens, cost float64) wire.MessageWithParts {
	return wire.MessageWithParts{Info: wire.Message{ID: id, Role: "assistant", Agent: agent, ProviderID: provider,
		ModelID: modelID, Tokens: tok, Cost: cost, Time: wire.MessageTime{Created: created, Completed: created + 1000}}}
}

func prompt(id string, created int64) wire.MessageWithParts {
	return wire.MessageWithParts{Info: wire.Message{ID: id, Role: "user", Time: wire.MessageTime{Created: created}}}
}

// randomSessions makes a few roots' worth of sessions with replies of
// every kind: priced, unpriced, counted by step-finish parts, empty.
func randomSessions(r *rand.Rand) []Session {
	ends := []string{model.EndComplete, model.EndFailed, model.EndAborted, model.EndInterrupted, model.EndDenied, model.EndRunning}
	agents := []string{"build", "general", "explore", ""}
	models := [][2]string{{"anthropic", "claude"}, {"openai", "gpt"}, {"mock", "mock-1"}}
	var out []Session
	for i := range 12 {
		s := Session{ID: "ses_" + string(rune('a'+i)), Root: "ses_r" + string(rune('a'+i%3)), RootTitle: "root",
			Agent: agents[r.IntN(len(agents))], End: ends[r.IntN(len(ends))]}
		for j := range 1 + r.IntN(6) {
			at := int64(1_700_000_000_000) + r.Int64N(5*86_400_000)
			s.Msgs = append(s.Msgs, prompt("msg_u", at))
			m := models[r.IntN(len(models))]
			tok := wire.Tokens{Input: float64(r.IntN(5000)), Output: float64(r.IntN(900)), Reasoning: float64(r.IntN(50)),
				Cache: wire.TokensCache{Read: float64(r.IntN(300)), Write: float64(r.IntN(30))}}
			cost := float64(r.IntN(1000)) / 10000
			msg := reply("msg_a", agents[r.IntN(len(agents))], m[0], m[1], at+1, tok, cost)
			if j%3 == 2 {
				// No totals yet: the step-finish parts say it.
				msg.Info.Tokens, msg.Info.Cost = wire.Tokens{}, 0
				half := tok
				half.Input /= 2
				msg.Parts = []wire.Part{{Type: wire.PartStepFinish, Tokens: &half, Cost: cost / 2},
					{Type: wire.PartStepFinish, Tokens: &half, Cost: cost / 2}}
			}
			s.Msgs = append(s.Msgs, msg)
		}
		out = append(out, s)
	}
	return out
}

// TestTotalsAreTheRepliesSum: for every grouping, the rows add up to the
// total, and the total is what the messages say, counted here on their
// own; the ends add up to it too.
func TestTotalsAreTheRepliesSum(t *testing.T) {
	for seed := range uint64(20) {
		sessions := randomSessions(rand.New(rand.NewPCG(seed, 7)))
		var want Figures
		for _, s := range sessions {
			for _, m := range s.Msgs {
				if m.Info.Role != "assistant" {
					continue
				}
				want.Replies++
				tok, cost := TokensOf(m.Info.Tokens), m.Info.Cost
				if tok.Sum() == 0 && cost == 0 {
					for _, p := range m.Parts {
						tok.Add(TokensOf(*p.Tokens))
						cost += p.Cost
					}
				}
				want.Tokens.Add(tok)
				want.Cost += cost
				if cost == 0 && tok.Sum() > 0 {
					want.Unpriced++
				}
			}
		}
		for _, by := range Bys {
			l := Build(sessions, by, Options{})
			var rows Figures
			for _, r := range l.Rows {
				rows.Plus(r.Figures)
			}
			var ends Figures
			for _, e := range l.Ends {
				ends.Plus(e)
			}
			for what, got := range map[string]Figures{"rows": rows, "total": l.Total, "ends": ends} {
				if !near(got, want) {
					t.Fatalf("seed %d by %s: %s add up to %+v, the messages to %+v", seed, by, what, got, want)
				}
			}
		}
	}
}

// near compares figures, costs to a float's rounding.
func near(a, b Figures) bool {
	d := a.Cost - b.Cost
	a.Cost, b.Cost, a.Sessions, b.Sessions = 0, 0, 0, 0
	return a == b && d < 1e-9 && d > -1e-9
}

// TestGroups: each grouping puts a reply where it belongs, counts each
// session once per group, and --since leaves older replies out.
func TestGroups(t *testing.T) {
	day := time.Date(2025, 11, 20, 23, 30, 0, 0, time.UTC).UnixMilli()
	tok := wire.Tokens{Input: 100, Output: 10}
	sessions := []Session{
		{ID: "ses_1", Root: "ses_1", RootTitle: "fix it", Agent: "build", End: model.EndComplete, Msgs: []wire.MessageWithParts{
			prompt("m0", day), reply("m1", "build", "anthropic", "claude", day, tok, 0.5),
			reply("m2", "", "anthropic", "claude", day+3_600_000, tok, 0.25)}},
		{ID: "ses_2", Root: "ses_1", RootTitle: "fix it", Agent: "general", End: model.EndAborted, Msgs: []wire.MessageWithParts{
			reply("m3", "general", "mock", "mock-1", day, tok, 0)}},
	}
	check := func(by By, o Options, want map[string]Figures) {
		t.Helper()
		l := Build(sessions, by, o)
		got := map[string]Figures{}
		for _, r := range l.Rows {
			got[r.Key] = r.Figures
		}
		if len(got) != len(want) {
			t.Fatalf("by %s: rows %+v, want %+v", by, got, want)
		}
		for k, w := range want {
			if g := got[k]; g.Sessions != w.Sessions || g.Replies != w.Replies || g.Cost != w.Cost || g.Unpriced != w.Unpriced {
				t.Errorf("by %s: %s = %+v, want %+v", by, k, g, w)
			}
		}
	}
	check(ByAgent, Options{}, map[string]Figures{"build": {Sessions: 1, Replies: 2, Cost: 0.75}, "general": {Sessions: 1, Replies: 1, Unpriced: 1}})
	check(ByModel, Options{}, map[string]Figures{"anthropic/claude": {Sessions: 1, Replies: 2, Cost: 0.75}, "mock/mock-1": {Sessions: 1, Replies: 1, Unpriced: 1}})
	check(ByRoot, Options{}, map[string]Figures{"ses_1": {Sessions: 2, Replies: 3, Cost: 0.75, Unpriced: 1}})
	check(ByDay, Options{}, map[string]Figures{"2025-11-20": {Sessions: 2, Replies: 2, Cost: 0.5, Unpriced: 1}, "2025-11-21": {Sessions: 1, Replies: 1, Cost: 0.25}})
	check(ByDay, Options{Loc: time.FixedZone("x", -3600)}, map[string]Figures{"2025-11-20": {Sessions: 2, Replies: 3, Cost: 0.75, Unpriced: 1}})
	check(ByEnd, Options{}, map[string]Figures{model.EndComplete: {Sessions: 1, Replies: 2, Cost: 0.75}, model.EndAborted: {Sessions: 1, Replies: 1, Unpriced: 1}})
	check(ByAgent, Options{Since: day + 1}, map[string]Figures{"build": {Sessions: 1, Replies: 1, Cost: 0.25}})

	l := Build(sessions, ByAgent, Options{})
	if l.Rows[0].Label != "" || Build(sessions, ByRoot, Options{}).Rows[0].Label != "fix it" {
		t.Errorf("labels: only a root's group is labelled by its title")
	}
	// Aborted is stopped by someone: not a bad end, and said apart.
	if got := l.BadLine(wholeTok); !strings.HasPrefix(got, "Nothing that ended badly") {
		t.Errorf("BadLine %q counts the aborted session as bad", got)
	}
	if bad, ab := l.Bad(), l.Aborted(); bad.Replies != 0 || ab.Replies != 1 || ab.Sessions != 1 || ab.Unpriced != 1 {
		t.Errorf("Bad %+v, Aborted %+v: want nothing bad, the aborted session's 1 unpriced reply apart", bad, ab)
	}
	if got, want := l.AbortedLine(wholeTok), "Aborted (stopped by someone): n/a of ≥$0.7500, "; !strings.HasPrefix(got, want) {
		t.Errorf("AbortedLine %q, want it to begin %q", got, want)
	}
	if u := l.UnpricedLine(); !strings.Contains(u, "1 of 3 replies") || !strings.Contains(u, "not $0") {
		t.Errorf("UnpricedLine = %q", u)
	}
}

// TestCostText: a missing cost is never written as $0.
func TestCostText(t *testing.T) {
	for _, c := range []struct {
		f    Figures
		want string
	}{
		{Figures{Cost: 0.01234}, "$0.0123"},
		{Figures{}, "$0.0000"},
		{Figures{Cost: 0, Unpriced: 2}, "n/a"},
		{Figures{Cost: 1.5, Unpriced: 1}, "≥$1.5000"},
	} {
		if got := CostText(c.f); got != c.want {
			t.Errorf("CostText(%+v) = %q, want %q", c.f, got, c.want)
		}
	}
	if got := (Report{Ends: map[string]Figures{model.EndComplete: {Replies: 1}}}).BadLine(wholeTok); !strings.HasPrefix(got, "Nothing") {
		t.Errorf("BadLine with nothing bad = %q", got)
	}
}

func wholeTok(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }

// TestFiguresJSONCostNull: a cost of which nothing is priced is null in
// JSON, in the total and in every row, beside its count of unpriced
// replies; a priced one is its sum.
func TestFiguresJSONCostNull(t *testing.T) {
	l := Report{By: ByAgent, Rows: []Row{{Key: "general", Figures: Figures{Replies: 2, Unpriced: 2}},
		{Key: "build", Figures: Figures{Replies: 1, Cost: 0.5}}}, Total: Figures{Replies: 3, Cost: 0.5, Unpriced: 2}}
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`{"key":"general","sessions":0,"replies":2,`, `"cost":null,"unpriced_replies":2}`,
		`{"key":"build",`, `"cost":0.5,"unpriced_replies":0}`, `"total":{"sessions":0,"replies":3,`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("ledger JSON lacks %s:\n%s", want, b)
		}
	}
	if strings.Contains(string(b), `"cost":0,`) {
		t.Errorf("a cost of which nothing is priced is written 0:\n%s", b)
	}
}
