package usage

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/testkit/colourtest"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/termtest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

const base = int64(1_763_632_800_000) // 2025-11-20T10:00:00Z

// fanOut is a root that runs a child still busy and a child that failed.
func fanOut() *model.State {
	s := model.New()
	for _, ses := range []wire.Session{{ID: "ses_r", Title: "refactor the parser"},
		{ID: "ses_a", ParentID: "ses_r", Title: "scan callers (@explore subagent)"},
		{ID: "ses_b", ParentID: "ses_r", Title: "fix tests (@general subagent)"}} {
		ses.Time = wire.SessionTime{Created: base, Updated: base}
		s.Apply(wire.SessionCreated{Info: ses})
	}
	s.Apply(wire.SessionStatusChanged{SessionID: "ses_a", Status: wire.SessionStatus{Type: wire.StatusBusy}})
	s.Apply(wire.SessionStatusChanged{SessionID: "ses_b", Status: wire.SessionStatus{Type: wire.StatusIdle}})
	s.Apply(wire.SessionStatusChanged{SessionID: "ses_r", Status: wire.SessionStatus{Type: wire.StatusBusy}})
	s.Apply(wire.MessageUpdated{Info: wire.Message{ID: "v1", SessionID: "ses_b", Role: "assistant",
		Error: &wire.ErrorInfo{Name: "APIError"}, Time: wire.MessageTime{Created: base}}})
	return s
}

func reply(id, agent, modelID string, in, cost float64) wire.MessageWithParts {
	return wire.MessageWithParts{Info: wire.Message{ID: id, Role: "assistant", Agent: agent, ProviderID: "anthropic", ModelID: modelID,
		Tokens: wire.Tokens{Input: in, Output: in / 10, Cache: wire.TokensCache{Read: in / 2}}, Cost: cost,
		Time: wire.MessageTime{Created: base + 1000, Completed: base + 2000}}}
}

var histories = task.HistoriesReply{Msgs: map[string][]wire.MessageWithParts{
	"ses_r": {reply("m1", "build", "claude-sonnet", 12_000, 0.125)},
	"ses_a": {reply("m1", "explore", "claude-haiku", 4_000, 0.004), reply("m2", "explore", "claude-haiku", 2_500, 0)},
	"ses_b": {reply("m1", "general", "claude-sonnet", 8_000, 0.06)},
}}

// opened is the room with the histories read.
func opened(t *testing.T, noColor bool) *Room {
	t.Helper()
	d, cmd := Open(styles.New(true, noColor), fanOut(), "ses_r", "refactor the parser")
	if cmd == nil {
		t.Fatal("Open asked for nothing")
	}
	d, _ = d.Update(histories)
	return d.(*Room)
}

func TestUsageGolden(t *testing.T) {
	for _, w := range []int{60, 120} {
		for _, noColor := range []bool{false, true} {
			t.Run(fmt.Sprintf("w%d/%s", w, map[bool]string{false: "color", true: "nocolor"}[noColor]), func(t *testing.T) {
				out := opened(t, noColor).View(w, 16)
				if e := colourtest.Escape(out); noColor && e != "" {
					t.Fatalf("NO_COLOR output has a colour escape:\n%q", out)
				}
				lines := strings.Split(out, "\n")
				if len(lines) != 16 {
					t.Errorf("%d lines, want 16", len(lines))
				}
				for i, l := range lines {
					if ansi.StringWidth(l) != w {
						t.Errorf("line %d is %d wide: %q", i, ansi.StringWidth(l), l)
					}
				}
				golden.RequireEqual(t, []byte(out))
			})
		}
	}
}

// TestUsageRoom: the request names the subtree with its directories;
// the groups and the end line come from the replies and the model; b
// cycles the groupings; the room reads again while the subtree runs;
// an error is said; esc closes.
func TestUsageRoom(t *testing.T) {
	d, cmd := Open(styles.New(true, true), fanOut(), "ses_r", "refactor the parser")
	req, ok := cmd().(tea.BatchMsg)[0]().(task.HistoriesRequest)
	if !ok {
		t.Fatal("Open did not ask for the histories first")
	}
	if strings.Join(req.IDs, ",") != "ses_r,ses_a,ses_b" || len(req.Dirs) != 3 {
		t.Fatalf("request %+v, want the subtree with its directories", req)
	}
	if v := ansi.Strip(d.View(120, 20)); !strings.Contains(v, "reading the messages of 3 sessions") {
		t.Errorf("while reading:\n%s", v)
	}
	d, _ = d.Update(histories)
	v := ansi.Strip(d.View(120, 20))
	for _, want := range []string{"build", "explore", "general", "Ended badly: $0.0600 of ≥$0.1890", "failed $0.0600 (1 session)",
		"Cost not reported for 1 of 4 replies", "the subtree runs: read again every 5s"} {
		if !strings.Contains(v, want) {
			t.Errorf("lacks %q:\n%s", want, v)
		}
	}
	for _, by := range []string{"model", "root", "day", "end", "agent"} {
		d, _ = d.Update(tea.KeyPressMsg{Code: 'b', Text: "b"})
		if v := ansi.Strip(d.View(120, 20)); !strings.Contains(v, "by "+by) {
			t.Errorf("b: want by %s:\n%s", by, v)
		}
	}
	if _, cmd := d.Update(tick{id: "ses_r"}); cmd == nil {
		t.Error("a tick while the subtree runs asked for nothing")
	}
	d, _ = d.Update(task.HistoriesReply{Err: errors.New("connection refused")})
	if v := ansi.Strip(d.View(120, 20)); !strings.Contains(v, "could not read the messages: connection refused") || !strings.Contains(v, "build") {
		t.Errorf("after a failed read, the figures stay and the error is said:\n%s", v)
	}
	if d, _ := d.Update(tea.KeyPressMsg{Code: tea.KeyEscape}); d != nil {
		t.Error("esc did not close")
	}
}

// TestUsageUntitled: a session with no title is named by its id, which
// the server wrote too: cleaned like any of its text.
func TestUsageUntitled(t *testing.T) {
	id := "ses_x" + opencodetest.Payload
	s := model.New()
	s.Apply(wire.SessionCreated{Info: wire.Session{ID: id, Time: wire.SessionTime{Created: base, Updated: base}}})
	d, _ := Open(styles.New(true, true), s, id, "")
	v := d.View(120, 16)
	if bad := termtest.Screen(v); bad != "" {
		t.Errorf("the room holds %s", bad)
	}
	if !strings.Contains(v, "ses_x␛]0;pwned") {
		t.Errorf("the head does not name the session by its id, cleaned:\n%s", v)
	}
}
