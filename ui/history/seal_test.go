package history

import (
	"fmt"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/wire"
)

// TestSortReadsSealed: the histories read only because a sort needs
// every one are sealed at the next Want, except those of the rows then
// in view; the eager ones stay whole. A sealed session is read again
// when it is selected, and when it changes: then the sort counts it
// unread until it is read again, and it is.
func TestSortReadsSealed(t *testing.T) {
	now := int64(1_800_000_000_000)
	st := lazyState(1000, now)
	srv := newFake(nil)
	h := New(Policy{LazyAfter: 500, Window: 7 * 24 * time.Hour})
	pump(t, &h, st, srv, h.Start(st, srv, now))
	view := []string{"ses_00950", "ses_00951"}
	pump(t, &h, st, srv, h.Want(st, srv, view[0], view, true))
	pump(t, &h, st, srv, h.Want(st, srv, view[0], view, true)) // seals the last replies
	sealed := 0
	for i := range 1000 {
		if st.Sealed(fmt.Sprintf("ses_%05d", i)) {
			sealed++
		}
	}
	if sealed != 1000-169-len(view) || st.Sealed(view[1]) || st.Sealed("ses_00001") {
		t.Fatalf("%d sealed, want the %d read for the sort alone", sealed, 1000-169-len(view))
	}
	if st.Tally().Unread != 0 || h.Left(st) != 0 {
		t.Fatalf("sealed sessions counted unread: %d, left %d", st.Tally().Unread, h.Left(st))
	}

	sel := "ses_00500"
	pump(t, &h, st, srv, h.Want(st, srv, sel, append([]string{sel}, view...), true))
	if srv.reads[sel] != 2 || st.Sealed(sel) {
		t.Fatalf("the selected sealed session read %d times, sealed %v", srv.reads[sel], st.Sealed(sel))
	}

	changed := "ses_00600"
	st.Apply(wire.SessionStatusChanged{SessionID: changed, Status: wire.SessionStatus{Type: wire.StatusBusy}})
	st.Apply(wire.SessionIdle{SessionID: changed})
	if st.Sealed(changed) || h.Left(st) != 1 {
		t.Fatalf("a sealed session that ran again: sealed %v, left %d", st.Sealed(changed), h.Left(st))
	}
	pump(t, &h, st, srv, h.Want(st, srv, sel, view, true))
	if srv.reads[changed] != 2 || !st.HasHistory(changed) || h.Left(st) != 0 {
		t.Fatalf("it was read %d times (history %v), left %d", srv.reads[changed], st.HasHistory(changed), h.Left(st))
	}
}
