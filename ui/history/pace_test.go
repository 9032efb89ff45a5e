package history

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/ui/room"
)

// TestPaced: the reads nobody asked for go at the policy's rate, a
// step's worth each PaceStep, never more at once; the wanted rows are
// read at once though the step's worth is spent; the header's count
// covers what waits on the pace.
func TestPaced(t *testing.T) {
	var steps []Msg
	after = func(d time.Duration, msg tea.Msg) tea.Cmd {
		if d != PaceStep {
			t.Fatalf("a wait of %s, want the step %s", d, PaceStep)
		}
		steps = append(steps, msg.(Msg))
		return nil
	}
	t.Cleanup(func() { after = room.After })
	now := int64(1_800_000_000_000)
	st := lazyState(100, now)
	srv := newFake(nil)
	h := New(Policy{Rate: 5}) // 5 a step
	pump(t, &h, st, srv, h.Start(st, srv, now))
	if srv.total() != 5 || len(steps) != 1 || h.Left(st) != 95 {
		t.Fatalf("the first step read %d (want 5), %d steps waiting (want 1), %d left (want 95)", srv.total(), len(steps), h.Left(st))
	}
	view := []string{"ses_00090", "ses_00091", "ses_00092"}
	pump(t, &h, st, srv, h.Want(st, srv, wanted(view[0], view, false)))
	if srv.total() != 8 || srv.reads["ses_00092"] != 1 || len(steps) != 1 {
		t.Fatalf("the wanted rows: %d reads in all (want 8), ses_00092 read %d times, %d steps", srv.total(), srv.reads["ses_00092"], len(steps))
	}
	for i := 0; len(steps) > i; i++ {
		pump(t, &h, st, srv, func() tea.Msg { return steps[i] })
		if want := min(8+5*(i+1), 100); srv.total() != want {
			t.Fatalf("after step %d: %d reads, want %d", i+1, srv.total(), want)
		}
	}
	if srv.total() != 100 || h.Left(st) != 0 || len(steps) != 19 {
		t.Fatalf("%d read, %d left, in %d steps (want 100, 0, 19)", srv.total(), h.Left(st), len(steps))
	}
}
