package ui

import (
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/inflight"
)

// A session created while a snapshot is in flight may be missing from
// that snapshot's listing; it must not be dropped as deleted.
func TestSnapshotRaceKeepsNewSessions(t *testing.T) {
	m := newTestModel(t, 80, 24, func(o *Options) {
		o.Server = fakeBackend{snap: func() model.Snapshot { return model.Snapshot{} }}
	})
	m = send(t, m, wire.ResyncNeeded{})
	m = send(t, m, events(created("ses_new", "", "made during the fetch", 1)))
	m = send(t, m, inflight.SnapshotReply{Tag: m.in.Tag(), Snap: model.Snapshot{Complete: true, Status: map[string]wire.SessionStatus{}}})
	if m.State().Session("ses_new") == nil {
		t.Fatal("a session created during the snapshot fetch was dropped")
	}
	// With no race, a complete snapshot does remove what is gone.
	m = send(t, m, wire.ResyncNeeded{})
	m = send(t, m, inflight.SnapshotReply{Tag: m.in.Tag(), Snap: model.Snapshot{Complete: true, Status: map[string]wire.SessionStatus{}}})
	if m.State().Session("ses_new") != nil {
		t.Fatal("a complete snapshot without the session did not drop it")
	}
}

// A status that changes while a snapshot is in flight must not be rolled
// back by that snapshot's older REST read: a child that went busy during
// the fetch, and that the snapshot still lists as idle, stays busy.
func TestSnapshotDoesNotRollBackNewerStatus(t *testing.T) {
	m := newTestModel(t, 80, 24, func(o *Options) {
		o.Server = fakeBackend{snap: func() model.Snapshot { return model.Snapshot{} }}
	})
	m = send(t, m, events(created("ses_a", "", "root", 1)))
	m = send(t, m, wire.ResyncNeeded{})
	m = send(t, m, EventsMsg{{Event: wire.SessionStatusChanged{SessionID: "ses_a", Status: wire.SessionStatus{Type: wire.StatusBusy}}}})
	old := model.Snapshot{
		Complete: true,
		Sessions: []wire.Session{{ID: "ses_a", Title: "root", Time: wire.SessionTime{Created: 1, Updated: 1}}},
		Status:   map[string]wire.SessionStatus{}, // read before it went busy
	}
	m = send(t, m, inflight.SnapshotReply{Tag: m.in.Tag(), Snap: old})
	if got := m.State().StateOf("ses_a").Kind; got != model.KindRunning {
		t.Fatalf("display after a stale snapshot = %v, want busy", got)
	}
	// Once that snapshot is in, the buffer is gone: a later snapshot that
	// says idle is believed.
	m = send(t, m, wire.ResyncNeeded{})
	m = send(t, m, inflight.SnapshotReply{Tag: m.in.Tag(), Snap: old})
	if got := m.State().StateOf("ses_a").Kind; got.Live() {
		t.Fatalf("display after a fresh idle snapshot = %v, want idle", got)
	}
}
