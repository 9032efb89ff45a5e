package intake

import (
	"context"
	"errors"
	"slices"
	"sort"
	"testing"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

var (
	busy = wire.SessionStatus{Type: wire.StatusBusy}
	idle = wire.SessionStatus{Type: wire.StatusIdle}
)

func status(id string, s wire.SessionStatus) wire.Envelope {
	return wire.Envelope{Event: wire.SessionStatusChanged{SessionID: id, Status: s}}
}

// laid is a state with the sessions given laid by a first snapshot, and
// the intake that laid it.
func laid(t *testing.T, ss []wire.Session, st map[string]wire.SessionStatus) (*model.State, *Intake) {
	t.Helper()
	s, in := model.New(), &Intake{}
	if !in.Snapshot(s, in.Resync(), model.Snapshot{Sessions: ss, Status: st, Complete: true}, nil) || !in.Primed() {
		t.Fatal("the first snapshot was not laid")
	}
	return s, in
}

// TestEventsDuringAReadAreAppliedAgain: a status that changed while the
// snapshot was read is not taken back by the older snapshot.
func TestEventsDuringAReadAreAppliedAgain(t *testing.T) {
	st, in := laid(t, []wire.Session{{ID: "ses_a"}}, map[string]wire.SessionStatus{"ses_a": busy})
	tag := in.Resync()
	in.Events(st, []wire.Envelope{status("ses_a", idle)})
	in.Snapshot(st, tag, model.Snapshot{Sessions: []wire.Session{{ID: "ses_a"}},
		Status: map[string]wire.SessionStatus{"ses_a": busy}, Complete: true}, nil)
	if st.Session("ses_a").Running() {
		t.Error("the snapshot's older status won over the event that came while it was read")
	}
	in.Events(st, []wire.Envelope{status("ses_a", busy)})
	if len(in.held) != 0 {
		t.Errorf("%d events held with no read out", len(in.held))
	}
}

// TestASessionCreatedDuringAReadIsKept: a complete listing read before a
// session was created does not drop it as deleted.
func TestASessionCreatedDuringAReadIsKept(t *testing.T) {
	st, in := laid(t, []wire.Session{{ID: "ses_a"}}, nil)
	tag := in.Resync()
	in.Events(st, []wire.Envelope{{Event: wire.SessionCreated{Info: wire.Session{ID: "ses_new"}}}})
	in.Snapshot(st, tag, model.Snapshot{Sessions: []wire.Session{{ID: "ses_a"}}, Complete: true}, nil)
	if st.Session("ses_new") == nil {
		t.Error("the session created during the read was dropped")
	}
	// The next read, with nothing created meanwhile, is complete again.
	in.Snapshot(st, in.Resync(), model.Snapshot{Sessions: []wire.Session{{ID: "ses_a"}}, Complete: true}, nil)
	if st.Session("ses_new") != nil {
		t.Error("a complete snapshot kept a session it does not list")
	}
}

// TestAStaleOrFailedReadChangesNothing: only the newest read is laid; a
// failed one ends the wait for it.
func TestAStaleOrFailedReadChangesNothing(t *testing.T) {
	st, in := laid(t, []wire.Session{{ID: "ses_a"}}, nil)
	old := in.Resync()
	tag := in.Resync()
	if in.Snapshot(st, old, model.Snapshot{Complete: true}, nil) || st.Session("ses_a") == nil {
		t.Error("a stale snapshot was laid")
	}
	if in.Snapshot(st, tag, model.Snapshot{Complete: true}, errors.New("connection refused")) || st.Session("ses_a") == nil {
		t.Error("a failed read changed the state")
	}
	if in.pending {
		t.Error("a failed read is still awaited")
	}
}

// TestUnsure: after an outage, the sessions last seen live, the new ones
// and those updated since, shown idle and unread, are read; at the
// baseline, none.
func TestUnsure(t *testing.T) {
	before := wire.SessionTime{Created: 1, Updated: 5}
	ss := []wire.Session{{ID: "ses_ran", Directory: "/p"}, {ID: "ses_old", Time: before}, {ID: "ses_busy"}, {ID: "ses_read"},
		{ID: "ses_changed", Time: before}}
	snap := model.Snapshot{
		Sessions: append(slices.Clone(ss[:4]), wire.Session{ID: "ses_changed", Time: wire.SessionTime{Created: 1, Updated: 9}},
			wire.Session{ID: "ses_new"}),
		Status:   map[string]wire.SessionStatus{"ses_busy": busy},
		Messages: map[string][]wire.MessageWithParts{"ses_read": nil},
	}
	fresh := &Intake{}
	if got := fresh.Unsure(model.New(), snap); got != nil {
		t.Errorf("at the baseline: %v", got)
	}
	st, in := laid(t, ss, map[string]wire.SessionStatus{"ses_ran": busy, "ses_busy": busy, "ses_read": busy})
	got := in.Unsure(st, snap)
	sort.Slice(got, func(i, j int) bool { return got[i].ID < got[j].ID })
	want := []task.HistoryRef{{ID: "ses_changed"}, {ID: "ses_new"}, {ID: "ses_ran", Dir: "/p"}}
	if !slices.Equal(got, want) {
		t.Errorf("Unsure = %v, want %v", got, want)
	}
}

// TestTree: a root's whole tree, once each, but what the snapshot read.
func TestTree(t *testing.T) {
	sessions := []wire.Session{
		{ID: "ses_p"}, {ID: "ses_c", ParentID: "ses_p"}, {ID: "ses_g", ParentID: "ses_c"},
		{ID: "ses_q"}, {ID: "ses_q1", ParentID: "ses_q", Directory: "/q"}, {ID: "ses_idle"},
		// A parent loop no server should send: each walk visits it once.
		{ID: "ses_x", ParentID: "ses_y"}, {ID: "ses_y", ParentID: "ses_x"},
	}
	snap := model.Snapshot{Sessions: sessions, Messages: map[string][]wire.MessageWithParts{"ses_g": nil}}
	for root, want := range map[string][]task.HistoryRef{
		"ses_p": {{ID: "ses_c"}, {ID: "ses_p"}},
		"ses_q": {{ID: "ses_q"}, {ID: "ses_q1", Dir: "/q"}},
		"ses_x": {{ID: "ses_x"}, {ID: "ses_y"}},
	} {
		got := Tree(snap, root)
		sort.Slice(got, func(i, j int) bool { return got[i].ID < got[j].ID })
		if !slices.Equal(got, want) {
			t.Errorf("root %s: %v, want %v", root, got, want)
		}
	}
}

// histories is a task.Server that answers History from a map and counts
// the reads; an id it lacks fails.
type histories struct {
	task.Server
	msgs  map[string][]wire.MessageWithParts
	reads chan string
}

func (h histories) History(_ context.Context, id, _ string) ([]wire.MessageWithParts, error) {
	h.reads <- id
	if m, ok := h.msgs[id]; ok {
		return m, nil
	}
	return nil, errors.New("500 Internal Server Error")
}

// TestRead: each ref once; a read that fails is left out, the rest kept.
func TestRead(t *testing.T) {
	one := []wire.MessageWithParts{{Info: wire.Message{ID: "msg_1"}}}
	h := histories{msgs: map[string][]wire.MessageWithParts{"ses_a": one, "ses_b": nil}, reads: make(chan string, 8)}
	var snap model.Snapshot
	Read(context.Background(), h, &snap, []task.HistoryRef{{ID: "ses_a"}, {ID: "ses_broken"}, {ID: "ses_b"}, {ID: "ses_a"}})
	close(h.reads)
	var asked []string
	for id := range h.reads {
		asked = append(asked, id)
	}
	if len(asked) != 3 || len(snap.Messages) != 2 || len(snap.Messages["ses_a"]) != 1 {
		t.Errorf("asked %v, read %v", asked, snap.Messages)
	}
}
