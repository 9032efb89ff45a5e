package tree

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

// recordedEvents are the events of the model's replay fixtures, one slice
// per recording.
func recordedEvents(tb testing.TB) map[string][]wire.Event {
	tb.Helper()
	files, _ := filepath.Glob("../../model/testdata/replay/*.jsonl")
	if len(files) == 0 {
		tb.Fatal("no replay fixtures in model/testdata/replay")
	}
	out := map[string][]wire.Event{}
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			tb.Fatal(err)
		}
		recs, err := client.ReadRecording(r)
		r.Close()
		if err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		for _, x := range recs {
			env, err := wire.DecodeEvent(x.Data)
			if err != nil {
				tb.Fatalf("%s: %v", f, err)
			}
			out[filepath.Base(f)] = append(out[filepath.Base(f)], env.Event)
		}
	}
	return out
}

// TestCachedRowsMatchFreshOnes replays each recording into a pane that
// keeps its row cache across events, clock ticks, spinner frames and
// cursor moves, and compares every frame with one drawn from scratch: the
// cache must never show a stale row.
func TestCachedRowsMatchFreshOnes(t *testing.T) {
	spins := []string{"⠋", "⠙", "⠹"}
	for name, evs := range recordedEvents(t) {
		st := model.New()
		s := styles.New(true, false)
		live := New(s)
		live.SetSize(120, 30)
		live.SetState(st)
		now := int64(1_700_000_000_000)
		for i, ev := range evs {
			st.Apply(ev)
			live.Sync()
			now += 137 // crosses a second every few events
			spin := spins[i%len(spins)]
			live.SetClock(now, spin)
			if i%7 == 0 {
				live.SelectIndex(i % max(len(live.Rows()), 1))
			}
			fresh := New(s)
			fresh.SetSize(120, 30)
			fresh.SetState(st)
			fresh.SetClock(now, spin)
			fresh.SelectIndex(live.cursor)
			fresh.offset = live.offset
			if got, want := live.View(), fresh.View(); got != want {
				t.Fatalf("%s, event %d (%T): cached frame differs from a fresh one\ncached:\n%s\nfresh:\n%s", name, i, ev, got, want)
			}
		}
	}
}
