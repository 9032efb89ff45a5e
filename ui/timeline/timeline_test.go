package timeline

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/octop-dev/octop/internal/testkit/colourtest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

const base = 1_000_000

// fanout: a root running 0-100 s (still running) with a child that
// completed (10-40 s), one aborted (10-50 s) and one still running with a
// grandchild that failed (20-70 s), and one that never ran.
func fanout() *model.State {
	s := model.New()
	created := func(id, parent, title string, at int64) {
		s.Apply(wire.SessionCreated{Info: wire.Session{ID: id, ParentID: parent, Title: title, Time: wire.SessionTime{Created: base + at, Updated: base + at}}})
	}
	run := func(id string, start, end int64, tail ...wire.Event) {
		s.Apply(wire.MessageUpdated{Info: wire.Message{ID: "u" + id, SessionID: id, Role: "user", Time: wire.MessageTime{Created: base + start}}})
		done := int64(0)
		if end != 0 {
			done = base + end
		}
		s.Apply(wire.MessageUpdated{Info: wire.Message{ID: "v" + id, SessionID: id, Role: "assistant", Finish: "stop", Time: wire.MessageTime{Created: base + start, Completed: done}}})
		typ := wire.StatusIdle
		if end == 0 {
			typ = wire.StatusBusy
		}
		s.Apply(wire.SessionStatusChanged{SessionID: id, Status: wire.SessionStatus{Type: typ}})
		for _, ev := range tail {
			s.Apply(ev)
		}
	}
	created("ses_r", "", "refactor the parser", 0)
	created("ses_a", "ses_r", "scan callers (@explore subagent)", 1)
	created("ses_b", "ses_r", "fix tests (@general subagent)", 2)
	created("ses_c", "ses_r", "write docs (@general subagent)", 3)
	created("ses_b1", "ses_b", "run the suite (@general subagent)", 4)
	created("ses_d", "ses_r", "never started", 5)
	run("ses_r", 0, 0)
	run("ses_a", 10_000, 40_000)
	run("ses_c", 10_000, 50_000, wire.SessionError{SessionID: "ses_c", Error: &wire.ErrorInfo{Name: "MessageAbortedError"}})
	run("ses_b", 12_000, 0)
	run("ses_b1", 20_000, 70_000, wire.SessionError{SessionID: "ses_b1", Error: &wire.ErrorInfo{Name: "APIError", Data: wire.ErrorInfoData{Message: "overloaded"}}})
	return s
}

func TestTimelineGolden(t *testing.T) {
	for _, w := range []int{80, 200} {
		for _, noColor := range []bool{false, true} {
			t.Run(fmt.Sprintf("w%d/%s", w, map[bool]string{false: "color", true: "nocolor"}[noColor]), func(t *testing.T) {
				m := New("ses_r", styles.New(true, noColor))
				m.SetSize(w, 10)
				m.SetData(Spans(fanout(), "ses_r"), base+100_000)
				out := m.View()
				if e := colourtest.Escape(out); noColor && e != "" {
					t.Fatalf("NO_COLOR output has a colour escape:\n%q", out)
				}
				for i, l := range strings.Split(out, "\n") {
					if ansi.StringWidth(l) > w {
						t.Errorf("line %d is %d wide: %q", i, ansi.StringWidth(l), l)
					}
				}
				golden.RequireEqual(t, []byte(out))
			})
		}
	}
}

func TestTimelineMarksAndKeys(t *testing.T) {
	m := New("ses_r", styles.New(true, true))
	m.SetSize(80, 10)
	m.SetData(Spans(fanout(), "ses_r"), base+100_000)
	v := ansi.Strip(m.View())
	// The running child b holds the root up: it and the root are marked.
	for _, want := range []string{"◆refactor the parser", "◆  fix tests", " scan callers", "|0s", "|1m"} {
		if !strings.Contains(v, want) {
			t.Errorf("timeline lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "◆  scan callers") || strings.Contains(v, "◆    run the suite") {
		t.Errorf("a child that finished while its parent went on is on the critical path:\n%s", v)
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if cmd == nil || cmd() != (Close{}) {
		t.Error("esc did not ask to close")
	}
}
