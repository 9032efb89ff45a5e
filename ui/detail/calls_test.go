package detail

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

// TestCachedCallsDrawAsFresh: a pane that keeps its calls' lines across
// views draws, after every change, what a pane drawing everything afresh
// draws: calls ending, failing and added, the width, the styles, the
// scroll, the session shown and the clock changing between views.
func TestCachedCallsDrawAsFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	st := busyWithCalls(40)
	other := busyWithCalls(3)
	colour, plain := styles.New(true, true), styles.New(false, true)
	kept := New(colour)
	kept.SetState(st)
	kept.SetSession("s")
	kept.SetSize(70, 14)
	next := 41
	now, spin := int64(100_000), "*"
	for step := range 300 {
		switch rng.IntN(8) {
		case 0: // the running call ends, a new one starts
			st.Apply(toolPart(next-1, wire.ToolCompleted, int64(next*1000)))
			st.Apply(toolPart(next, wire.ToolRunning, 0))
			next++
		case 1: // a recent call's part comes again, failed
			p := toolPart(next-2-rng.IntN(5), wire.ToolError, int64(next*1000))
			p.Part.State.Error = fmt.Sprintf("exit status %d", step)
			st.Apply(p)
		case 2:
			kept.SetSize(40+rng.IntN(60), 6+rng.IntN(20))
		case 3:
			if rng.IntN(2) == 0 {
				kept.SetStyles(plain)
			} else {
				kept.SetStyles(colour)
			}
		case 4:
			kept.ScrollBy(rng.IntN(30) - 15)
		case 5: // the clock moves
			now = int64(100_000 + step*700)
			kept.SetClock(now, spin)
		case 7: // the spinner steps alone
			spin = string("-\\|/"[step%4])
			kept.SetClock(now, spin)
		case 6:
			if rng.IntN(2) == 0 {
				kept.SetState(other)
			} else {
				kept.SetState(st)
			}
		}
		fresh := kept
		fresh.calls = &callLines{}
		if got, want := kept.View(), fresh.View(); got != want {
			t.Fatalf("step %d: the pane with kept lines drew\n%s\nwant, drawn afresh:\n%s", step, got, want)
		}
	}
}

// toolPart is call i of session s in state status, ended at end.
func toolPart(i int, status string, end int64) wire.PartUpdated {
	st := &wire.ToolState{Status: status, Title: fmt.Sprintf("step %d", i), Input: json.RawMessage(`{"command":"true"}`),
		Time: wire.ToolTime{Start: int64(1000 + i*1000), End: end}}
	if status == wire.ToolError {
		st.Error = "exit status 1"
	}
	return wire.PartUpdated{Part: wire.Part{ID: fmt.Sprintf("p%03d", i), SessionID: "s", MessageID: "m",
		Type: wire.PartTool, Tool: "bash", CallID: fmt.Sprint(i), State: st}}
}

// TestCallTimesAreTheModels: a call's duration is the model's: a
// background task's call lasts until its child ended (the server closed
// it at launch), and one cut short by a crash until its run ended.
func TestCallTimesAreTheModels(t *testing.T) {
	st := model.New()
	for _, ev := range []wire.Event{
		wire.SessionCreated{Info: wire.Session{ID: "p", Title: "root"}},
		wire.MessageUpdated{Info: wire.Message{ID: "m1", SessionID: "p", Role: "user", Time: wire.MessageTime{Created: 1000}}},
		wire.MessageUpdated{Info: wire.Message{ID: "m2", SessionID: "p", Role: "assistant", Time: wire.MessageTime{Created: 1100, Completed: 2000}}},
		wire.PartUpdated{Part: wire.Part{ID: "t1", SessionID: "p", MessageID: "m2", Type: wire.PartTool, Tool: "task",
			State: &wire.ToolState{Status: wire.ToolCompleted, Title: "worker 1", Metadata: json.RawMessage(`{"sessionId":"ses_k","background":true}`),
				Time: wire.ToolTime{Start: 1200, End: 1300}}}},
		wire.PartUpdated{Part: wire.Part{ID: "t2", SessionID: "p", MessageID: "m2", Type: wire.PartTool, Tool: "bash",
			State: &wire.ToolState{Status: wire.ToolRunning, Title: "sleep 60", Time: wire.ToolTime{Start: 1500}}}},
		wire.SessionCreated{Info: wire.Session{ID: "ses_k", ParentID: "p", Title: "worker 1 (@general subagent)"}},
		wire.MessageUpdated{Info: wire.Message{ID: "m3", SessionID: "ses_k", Role: "user", Time: wire.MessageTime{Created: 1250}}},
		wire.MessageUpdated{Info: wire.Message{ID: "m4", SessionID: "ses_k", Role: "assistant", Time: wire.MessageTime{Created: 1300, Completed: 9300}}},
		wire.SessionStatusChanged{SessionID: "ses_k", Status: wire.SessionStatus{Type: wire.StatusIdle}},
		wire.SessionStatusChanged{SessionID: "p", Status: wire.SessionStatus{Type: wire.StatusIdle}},
	} {
		st.Apply(ev)
	}
	m := New(styles.New(true, true))
	m.SetState(st)
	m.SetSession("p")
	m.SetSize(70, 12)
	m.SetClock(61_000, "*")
	lines := view(m)
	for call, want := range map[string]string{"worker 1 (background)": "8.1s", "sleep 60 — interrupted": "7.8s"} {
		found := false
		for _, l := range lines {
			if strings.Contains(l, call) {
				found = strings.HasSuffix(strings.TrimSpace(l), " "+want)
			}
		}
		if !found {
			t.Errorf("the line of %q does not end in %s:\n%s", call, want, strings.Join(lines, "\n"))
		}
	}
}

// TestFittedIsFit: the cache of fitted lines answers what fit does, for
// each width, and past its bound.
func TestFittedIsFit(t *testing.T) {
	f := &fitted{}
	for round := range 2 {
		for i := range maxFitted + 20 {
			s := fmt.Sprintf("\x1b[1mline %d\x1b[m · ✓ %s", i, strings.Repeat("x", i%50))
			for _, w := range []int{10, 40, 80} {
				if got, want := f.fit(s, w), fit(s, w); got != want {
					t.Fatalf("round %d, %q at %d: %q, want %q", round, s, w, got, want)
				}
			}
		}
	}
	if len(f.lines) > maxFitted {
		t.Fatalf("%d lines kept, more than %d", len(f.lines), maxFitted)
	}
}
