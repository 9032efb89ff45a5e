package model

import (
	"slices"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// readScale is a state of ten listed scale sessions with the history of
// one child read: what the screen holds once a sort read it.
func readScale(t *testing.T) (s *State, f scaleFixture, id string) {
	t.Helper()
	f = loadScaleFixture(t)
	s = New()
	s.ApplySnapshot(Snapshot{Sessions: f.sessions(t, 10), Complete: true})
	id = scaleID(1)
	s.ApplyMessages(map[string][]wire.MessageWithParts{id: f.historyOf(t, id)})
	if len(s.Session(id).Tools) == 0 {
		t.Fatal("the fixture's history has no tool calls")
	}
	return s, f, id
}

// TestSealedReadAgainIsWhole: a sealed session shows what it showed
// whole, and a read of its history again gives back exactly the state it
// had before it was sealed (no call counted twice).
func TestSealedReadAgainIsWhole(t *testing.T) {
	s, f, id := readScale(t)
	want, view := canon(s), viewOf(s, id)
	if !s.SealIdle(id) || !s.Sealed(id) || !s.HasHistory(id) {
		t.Fatalf("SealIdle: sealed %v, has history %v", s.Sealed(id), s.HasHistory(id))
	}
	if got := viewOf(s, id); got != view {
		t.Fatalf("sealed %+v, whole %+v", got, view)
	}
	s.ApplyMessages(map[string][]wire.MessageWithParts{id: f.historyOf(t, id)})
	if s.Sealed(id) {
		t.Fatal("still sealed after its history was read again")
	}
	if got := canon(s); got != want {
		t.Fatalf("read again:\n%s\nbefore the seal:\n%s", got, want)
	}
}

// TestSealedReopensOnChange: whatever changes a sealed session opens it
// again as unread (not whole, no calls counted), never as a part of its
// history taken for all of it; its history read then makes the same
// state as if it had never been sealed.
func TestSealedReopensOnChange(t *testing.T) {
	for _, tc := range []struct {
		name string
		ev   func(id string) wire.Event
	}{
		{"busy", func(id string) wire.Event { return status(id, "busy") }},
		{"a new call", func(id string) wire.Event { return tool(id, "msg_zz", "prt_zz", "bash", "completed") }},
		{"a permission", func(id string) wire.Event {
			return wire.PermissionAsked{Request: wire.PermissionRequest{ID: "per_1", SessionID: id, Permission: "bash"}}
		}},
		{"a newer info", func(id string) wire.Event {
			return wire.SessionUpdated{Info: wire.Session{ID: id, Title: "renamed", Time: wire.SessionTime{Updated: 1 << 50}}}
		}},
		{"todos", func(id string) wire.Event { return wire.TodoUpdated{SessionID: id, Todos: []wire.Todo{{Content: "x"}}} }},
		{"an error", func(id string) wire.Event { return aborted(id) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref, f, id := readScale(t)
			ref.Apply(tc.ev(id))
			ref.ApplyMessages(map[string][]wire.MessageWithParts{id: f.historyOf(t, id)})

			s, _, _ := readScale(t)
			s.SealIdle(id)
			s.Apply(tc.ev(id))
			if s.Sealed(id) || s.HasHistory(id) || !slices.Contains(s.NeedsHistory(), id) {
				t.Fatalf("after the event: sealed %v, has history %v", s.Sealed(id), s.HasHistory(id))
			}
			if c := s.Counts(id); c.ToolsDone+c.ToolsFailed+c.ToolsRunning > 1 {
				t.Fatalf("after the event it counts the sealed calls again: %+v", c)
			}
			s.ApplyMessages(map[string][]wire.MessageWithParts{id: f.historyOf(t, id)})
			if got, want := canon(s), canon(ref); got != want {
				t.Fatalf("read again:\n%s\nnever sealed:\n%s", got, want)
			}
		})
	}
}

// TestSealIdleLeavesLive: a session that runs or asks something is not
// sealed by SealIdle (its state is about to change), nor is an unread one.
func TestSealIdleLeavesLive(t *testing.T) {
	s, _, id := readScale(t)
	if s.SealIdle(scaleID(2)) {
		t.Fatal("an unread session was sealed")
	}
	s.Apply(status(id, "busy"))
	if s.SealIdle(id) {
		t.Fatal("a busy session was sealed")
	}
	s.Apply(status(id, "idle"))
	s.Apply(wire.QuestionAsked{Request: wire.QuestionRequest{ID: "que_1", SessionID: id}})
	if s.SealIdle(id) {
		t.Fatal("a session asking a question was sealed")
	}
}

// TestSnapshotKeepsSealed: a snapshot listing a sealed session unchanged
// keeps it sealed with its totals; one that lists it changed opens it.
func TestSnapshotKeepsSealed(t *testing.T) {
	s, f, id := readScale(t)
	view := viewOf(s, id)
	s.SealIdle(id)
	list := f.sessions(t, 10)
	s.ApplySnapshot(Snapshot{Sessions: list, Complete: true})
	if !s.Sealed(id) || viewOf(s, id) != view {
		t.Fatalf("relisted: sealed %v, %+v, want %+v", s.Sealed(id), viewOf(s, id), view)
	}
	list[1].Time.Updated++
	s.ApplySnapshot(Snapshot{Sessions: list, Complete: true})
	if s.Sealed(id) || s.HasHistory(id) {
		t.Fatal("listed as changed, it stays sealed")
	}
}
