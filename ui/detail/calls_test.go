package detail

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
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
