package cli

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/usage"
	"github.com/octop-dev/octop/internal/wire"
)

// spendServer is a fake server with a root (build, complete) and its
// child (general) that was aborted; the child's last reply is unpriced.
// now is the replies' time.
func spendServer(t *testing.T, prefix string, now int64) client.Options {
	t.Helper()
	srv := opencodetest.New(t, opencodetest.Options{})
	root, child := "ses_"+prefix+"root", "ses_"+prefix+"child"
	srv.AddSession(wire.Session{ID: root, Title: "fix\x1b[31m it", Time: wire.SessionTime{Created: now, Updated: now}})
	srv.AddSession(wire.Session{ID: child, ParentID: root, Title: "look", Time: wire.SessionTime{Created: now, Updated: now}})
	reply := func(id, agent string, in, cost float64) wire.MessageWithParts {
		return wire.MessageWithParts{Info: wire.Message{ID: id, Role: "assistant", Agent: agent, ProviderID: "anthropic", ModelID: "claude",
			Tokens: wire.Tokens{Input: in, Output: 10, Reasoning: 1, Cache: wire.TokensCache{Read: 5, Write: 2}}, Cost: cost,
			Finish: "stop", Time: wire.MessageTime{Created: now, Completed: now + 1}}}
	}
	user := func(id string) wire.MessageWithParts {
		return wire.MessageWithParts{Info: wire.Message{ID: id, Role: "user", Time: wire.MessageTime{Created: now}}}
	}
	srv.SetMessages(root, []wire.MessageWithParts{user("msg_1"), reply("msg_2", "build", 1000, 0.5)})
	aborted := reply("msg_4", "general", 200, 0)
	aborted.Info.Error = &wire.ErrorInfo{Name: "MessageAbortedError"}
	srv.SetMessages(child, []wire.MessageWithParts{user("msg_1"), reply("msg_2", "general", 300, 0.25), user("msg_3"), aborted})
	return client.Options{BaseURL: srv.URL()}
}

// TestUsageAddsUpTheReplies: every grouping's rows add up to the total,
// which is the replies' own figures, over both servers; what ended badly
// is said, and the unpriced reply's cost is missing, not $0.
func TestUsageAddsUpTheReplies(t *testing.T) {
	now := time.Now().UnixMilli()
	a, b := spendServer(t, "a", now), spendServer(t, "b", now)
	base := client.Options{}
	servers := a.BaseURL + "," + b.BaseURL
	for _, by := range usage.Bys {
		code, out, errs := run(t, base, "", "usage", "--server", servers, "--by", string(by), "--json")
		if code != codeOK || errs != "" {
			t.Fatalf("usage --by %s: exit %d, stderr %q", by, code, errs)
		}
		var got usageJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("usage --json: %v\n%s", err, out)
		}
		var rows usage.Figures
		for _, r := range got.Rows {
			rows.Plus(r.Figures)
		}
		// Per server: 3 replies, input 1500, cost 0.75 priced, 1 unpriced.
		want := usage.Tokens{Input: 3000, Output: 60, Reasoning: 6, CacheRead: 30, CacheWrite: 12}
		if got.Total.Replies != 6 || got.Total.Tokens != want || got.Total.Unpriced != 2 || !near(got.Total.Cost, 1.5) ||
			rows.Tokens != want || rows.Replies != 6 || !near(rows.Cost, 1.5) {
			t.Errorf("by %s: total %+v, rows add up to %+v", by, got.Total, rows)
		}
		// Aborted work is reported apart, never among what ended badly.
		if got.EndedBadly.Replies != 0 || got.Aborted.Replies != 4 || !near(got.Aborted.Cost, 0.5) || got.Aborted.Unpriced != 2 {
			t.Errorf("by %s: ended badly %+v, aborted %+v; want nothing bad and the aborted children's 4 replies, $0.50, 2 unpriced",
				by, got.EndedBadly, got.Aborted)
		}
	}
	code, out, _ := run(t, base, "", "usage", "--server", a.BaseURL, "--by", "root")
	for _, want := range []string{"ROOT", "CACHE WRITE", "ses_aroot fix␛[31m it", "total", "≥$0.7500",
		"Nothing that ended badly", "Aborted (stopped by someone): ≥$0.2500 of ≥$0.7500", "(1 session)",
		"Cost not reported for 1 of 3 replies"} {
		if code != codeOK || !strings.Contains(out, want) {
			t.Errorf("usage --by root lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b") {
		t.Errorf("a title's escape reached the terminal: %q", out)
	}
	code, out, _ = run(t, base, "", "usage", "--server", a.BaseURL, "--since", "1h")
	if code != codeOK || !strings.Contains(out, "total") || !strings.Contains(out, "$0.7500") {
		t.Errorf("usage --since 1h: exit %d\n%s", code, out)
	}
}

// TestUsageNothingPriced: with every reply unpriced (the scripted fake
// model's), usage says n/a and its JSON "cost": null beside the count of
// unpriced replies, never a made-up 0.
func TestUsageNothingPriced(t *testing.T) {
	now := time.Now().UnixMilli()
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.AddSession(wire.Session{ID: "ses_root", Title: "fan out", Time: wire.SessionTime{Created: now, Updated: now}})
	srv.SetMessages("ses_root", []wire.MessageWithParts{{Info: wire.Message{ID: "msg_1", Role: "assistant", Agent: "build",
		Tokens: wire.Tokens{Input: 300, Output: 15}, Finish: "stop", Time: wire.MessageTime{Created: now, Completed: now + 1}}}})
	opts := client.Options{BaseURL: srv.URL()}
	code, out, _ := run(t, opts, "", "usage", "--json")
	zero := regexp.MustCompile(`"cost": 0,\s*"unpriced_replies": [1-9]`)
	if code != codeOK || !strings.Contains(out, `"cost": null,`) || zero.MatchString(out) ||
		!strings.Contains(out, `"unpriced_replies": 1`) {
		t.Errorf("usage --json: exit %d, want cost null beside 1 unpriced reply:\n%s", code, out)
	}
	code, out, _ = run(t, opts, "", "usage")
	if code != codeOK || !strings.Contains(out, "n/a") || strings.Contains(out, "$0.0000") {
		t.Errorf("usage: exit %d, want n/a:\n%s", code, out)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// TestUsageOneServerDown: the other server still counts; the dead one is
// a line naming it, and the exit code is 1.
func TestUsageOneServerDown(t *testing.T) {
	a, dead := spendServer(t, "a", time.Now().UnixMilli()), deadServer(t)
	code, out, errs := run(t, client.Options{}, "", "usage", "--server", a.BaseURL+","+dead.BaseURL)
	if code != codeFail || !strings.Contains(out, "$0.7500") || !strings.Contains(errs, dead.BaseURL) {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2025, 11, 20, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{"24h": 24 * time.Hour, "7d": 7 * 24 * time.Hour, "2w": 14 * 24 * time.Hour,
		"90m": 90 * time.Minute, "1.5d": 36 * time.Hour} {
		got, err := parseSince(in, now)
		if err != nil || got != now.Add(-want).UnixMilli() {
			t.Errorf("parseSince(%q) = %d, %v", in, got, err)
		}
	}
	for _, bad := range []string{"x", "7", "-1d", "0h", "d"} {
		if _, err := parseSince(bad, now); err == nil || !strings.Contains(err.Error(), "24h, 7d or 2w") {
			t.Errorf("parseSince(%q): %v", bad, err)
		}
	}
	if got, err := parseSince("", now); got != 0 || err != nil {
		t.Errorf("parseSince(\"\") = %d, %v", got, err)
	}
}
