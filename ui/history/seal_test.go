package history

import (
	"fmt"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// sealedOf counts the sealed sessions among lazyState's n.
func sealedOf(st *model.State, n int) int {
	sealed := 0
	for i := range n {
		if st.Sealed(fmt.Sprintf("ses_%05d", i)) {
			sealed++
		}
	}
	return sealed
}

// TestEveryReadSealed: every history read is sealed at the next Want,
// however it came to be read (without being asked, or for a sort),
// except those of the rows then in view and the selection. A sealed
// session is read again when it is selected, and when it changes: then
// the sort counts it unread until it is read again, and it is.
func TestEveryReadSealed(t *testing.T) {
	now := int64(1_800_000_000_000)
	st := lazyState(1000, now)
	srv := newFake(nil)
	h := New(Policy{LazyAfter: 500, Window: 7 * 24 * time.Hour})
	pump(t, &h, st, srv, h.Start(st, srv, now))
	view := []string{"ses_00950", "ses_00951"}
	pump(t, &h, st, srv, h.Want(st, srv, wanted(view[0], view, true)))
	pump(t, &h, st, srv, h.Want(st, srv, wanted(view[0], view, true))) // seals the last replies
	if n := sealedOf(st, 1000); n != 1000-len(view) || st.Sealed(view[1]) || !st.Sealed("ses_00001") {
		t.Fatalf("%d sealed (ses_00001, read without being asked: %v), want all but the %d in view",
			n, st.Sealed("ses_00001"), len(view))
	}
	if st.Tally().Unread != 0 || h.Left(st) != 0 {
		t.Fatalf("sealed sessions counted unread: %d, left %d", st.Tally().Unread, h.Left(st))
	}

	sel := "ses_00500"
	pump(t, &h, st, srv, h.Want(st, srv, wanted(sel, append([]string{sel}, view...), true)))
	if srv.reads[sel] != 2 || st.Sealed(sel) {
		t.Fatalf("the selected sealed session read %d times, sealed %v", srv.reads[sel], st.Sealed(sel))
	}

	changed := "ses_00600"
	st.Apply(wire.SessionStatusChanged{SessionID: changed, Status: wire.SessionStatus{Type: wire.StatusBusy}})
	st.Apply(wire.SessionIdle{SessionID: changed})
	if st.Sealed(changed) || h.Left(st) != 1 {
		t.Fatalf("a sealed session that ran again: sealed %v, left %d", st.Sealed(changed), h.Left(st))
	}
	pump(t, &h, st, srv, h.Want(st, srv, wanted(sel, view, true)))
	if srv.reads[changed] != 2 || !st.HasHistory(changed) || h.Left(st) != 0 {
		t.Fatalf("it was read %d times (history %v), left %d", srv.reads[changed], st.HasHistory(changed), h.Left(st))
	}
}

// TestSweepSealsWhatLeftView: a row kept whole while in view is sealed
// by the sweep once it leaves the view, and so is a session the stream
// showed whole (watched from its creation); what a room asks for is read
// again if sealed and kept whole until it no longer asks.
func TestSweepSealsWhatLeftView(t *testing.T) {
	now := int64(1_800_000_000_000)
	st := lazyState(100, now)
	srv := newFake(nil)
	h := New(Policy{})
	pump(t, &h, st, srv, h.Start(st, srv, now))
	view := []string{"ses_00010", "ses_00011"}
	pump(t, &h, st, srv, h.Want(st, srv, wanted(view[0], view, false)))
	watched := "ses_new"
	st.Apply(wire.SessionCreated{Info: wire.Session{ID: watched, Time: wire.SessionTime{Created: now, Updated: now}}})
	st.Apply(wire.SessionIdle{SessionID: watched})
	h.Sweep(st)
	if !st.HasHistory(watched) || st.Sealed(watched) == false || st.Sealed(view[0]) || st.Sealed(view[1]) {
		t.Fatalf("after a sweep: the watched session read %v sealed %v; in view sealed %v %v",
			st.HasHistory(watched), st.Sealed(watched), st.Sealed(view[0]), st.Sealed(view[1]))
	}
	pump(t, &h, st, srv, h.Want(st, srv, wanted(view[1], []string{view[1], "ses_00012"}, false))) // scrolled by a row
	h.Sweep(st)
	if !st.Sealed(view[0]) || st.Sealed(view[1]) {
		t.Fatalf("scrolled by a row: the row gone sealed %v, the row still in view %v", st.Sealed(view[0]), st.Sealed(view[1]))
	}
	pump(t, &h, st, srv, h.Want(st, srv, Wanted{Asked: []string{"ses_00050", view[1]}}))
	h.Sweep(st)
	if st.Sealed(view[1]) || st.Sealed("ses_00050") || srv.reads["ses_00050"] != 2 {
		t.Fatalf("asked for: sealed %v and %v, read %d times", st.Sealed(view[1]), st.Sealed("ses_00050"), srv.reads["ses_00050"])
	}
	pump(t, &h, st, srv, h.Want(st, srv, Wanted{}))
	h.Sweep(st)
	if !st.Sealed("ses_00050") || !st.Sealed(view[1]) {
		t.Fatal("no longer asked for, still whole")
	}
}
