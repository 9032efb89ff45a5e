package history

import (
	"fmt"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

const day = int64(24 * time.Hour / time.Millisecond)

// lazyState is n finished sessions, one updated each hour back from now,
// so the last 7 days hold 168 of them.
func lazyState(n int, nowMS int64) *model.State {
	st := model.New()
	var sessions []wire.Session
	for i := range n {
		at := nowMS - int64(i)*day/24
		sessions = append(sessions, wire.Session{ID: fmt.Sprintf("ses_%05d", i), Time: wire.SessionTime{Created: at, Updated: at}})
	}
	st.ApplySnapshot(model.Snapshot{Sessions: sessions, Complete: true})
	return st
}

// TestLazyPolicy: past the threshold, only the sessions updated within
// the window are read without being asked; an old one is read when it is
// wanted (in view, selected), and all of them once a sort or filter needs
// every history. Under the threshold, every one is read.
func TestLazyPolicy(t *testing.T) {
	now := int64(1_800_000_000_000)
	p := Policy{LazyAfter: 500, Window: 7 * 24 * time.Hour}

	st := lazyState(1000, now)
	srv := newFake(nil)
	h := New(p)
	pump(t, &h, st, srv, h.Start(st, srv, now))
	if got := len(srv.reads); got != 169 { // 0h … 168h back
		t.Fatalf("read %d histories without being asked, want the 169 of the last 7 days", got)
	}
	if h.Left(st) != 0 || st.Tally().Unread != 1000-169 {
		t.Fatalf("left %d, unread %d", h.Left(st), st.Tally().Unread)
	}
	old := "ses_00900"
	pump(t, &h, st, srv, h.Want(st, srv, wanted(old, []string{old, "ses_00001"}, false)))
	if srv.reads[old] != 1 || !st.HasHistory(old) || srv.reads["ses_00001"] != 1 {
		t.Fatalf("a wanted old session read %d times (history %v), a read one again %d times", srv.reads[old], st.HasHistory(old), srv.reads["ses_00001"])
	}
	pump(t, &h, st, srv, h.Want(st, srv, wanted("", nil, true)))
	if len(srv.reads) != 1000 || st.Tally().Unread != 0 || srv.total() != 1000 {
		t.Fatalf("with every history needed: %d sessions read, %d reads, %d unread", len(srv.reads), srv.total(), st.Tally().Unread)
	}

	small := lazyState(400, now)
	srv = newFake(nil)
	h = New(p)
	pump(t, &h, small, srv, h.Start(small, srv, now))
	if len(srv.reads) != 400 {
		t.Fatalf("under the threshold: %d of 400 read", len(srv.reads))
	}
}

// TestWantedFirst: the wanted sessions go out before the queue, and the
// reads nobody asked for hold at most Parallel-1 of the Parallel at once,
// so a row brought into view never waits for a whole queue.
func TestWantedFirst(t *testing.T) {
	now := int64(1_800_000_000_000)
	st := lazyState(100, now)
	srv := newFake(nil)
	h := New(Policy{})
	h.Start(st, srv, now) // the Cmds are not run: every slot stays taken
	if h.reads != Parallel-1 || h.bg != Parallel-1 {
		t.Fatalf("%d reads out, %d unasked; want %d of them", h.reads, h.bg, Parallel-1)
	}
	cmd := h.Want(st, srv, wanted("ses_00099", []string{"ses_00099", "ses_00098"}, false))
	if h.reads != Parallel || cmd == nil {
		t.Fatalf("the wanted rows found no free slot: %d reads out", h.reads)
	}
	var got Msg
	for _, m := range msgsOf(cmd) {
		got = m
	}
	if len(got.ids) != 2 || got.ids[0] != "ses_00099" || got.bg {
		t.Fatalf("the wanted read took %v (unasked %v)", got.ids, got.bg)
	}
}
