package history

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/room"
)

// TestFailedReadsAreRetried: a read that fails is tried again after a
// wait that doubles each time it fails again; meanwhile the session
// still counts as loading, until every row is read.
func TestFailedReadsAreRetried(t *testing.T) {
	var waits []time.Duration
	after = func(d time.Duration, msg tea.Msg) tea.Cmd {
		waits = append(waits, d)
		return func() tea.Msg { return msg }
	}
	t.Cleanup(func() { after = room.After })
	st := model.New()
	var sessions []wire.Session
	for _, id := range []string{"ses_a", "ses_b", "ses_c"} {
		sessions = append(sessions, wire.Session{ID: id, Time: wire.SessionTime{Created: 1, Updated: 1}})
	}
	st.ApplySnapshot(model.Snapshot{Sessions: sessions, Complete: true})
	srv := newFake(map[string]int{"ses_b": 3})

	h := &Reader{}
	pump(t, h, st, srv, h.Start(st, srv, 0))
	if h.Left(st) != 0 || !st.HasHistory("ses_b") {
		t.Fatalf("after the retries %d sessions are left to read (ses_b read: %v), want 0", h.Left(st), st.HasHistory("ses_b"))
	}
	if srv.reads["ses_b"] != 4 || srv.reads["ses_a"] != 1 {
		t.Errorf("reads %v, want ses_b 4 times (3 failures), the others once", srv.reads)
	}
	if want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}; !slices.Equal(waits, want) {
		t.Errorf("waits %v, want %v", waits, want)
	}
}

// TestLoadingCountsWhatFailed: while a failed read waits for its retry,
// the header's count still says it is loading; a new round (the next
// snapshot) drops the old round's wait and reads it again itself.
func TestLoadingCountsWhatFailed(t *testing.T) {
	var held []tea.Cmd
	after = func(d time.Duration, msg tea.Msg) tea.Cmd {
		return func() tea.Msg { held = append(held, func() tea.Msg { return msg }); return nil }
	}
	t.Cleanup(func() { after = room.After })
	st := model.New()
	st.ApplySnapshot(model.Snapshot{Sessions: []wire.Session{{ID: "ses_a"}, {ID: "ses_b"}}, Complete: true})
	srv := newFake(map[string]int{"ses_b": 2})
	h := &Reader{}
	pump(t, h, st, srv, h.Start(st, srv, 0))
	if h.Left(st) != 1 || len(held) != 1 {
		t.Fatalf("after a failed read: %d left, %d retries waiting; want 1 and 1", h.Left(st), len(held))
	}
	pump(t, h, st, srv, h.Start(st, srv, 0)) // fails again: a wait of its own
	if h.Left(st) != 1 || len(held) != 2 {
		t.Fatalf("the new round: %d left, %d retries waiting; want 1 and 2", h.Left(st), len(held))
	}
	if _, ok := h.Done(held[0]().(Msg)); ok {
		t.Error("the wait of an older round was taken")
	}
	pump(t, h, st, srv, held[1])
	if h.Left(st) != 0 || !st.HasHistory("ses_b") || srv.reads["ses_b"] != 3 {
		t.Errorf("after the retry: %d left, ses_b read %d times; want 0 left, 3 reads", h.Left(st), srv.reads["ses_b"])
	}
}
