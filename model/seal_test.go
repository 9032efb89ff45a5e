package model

import (
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// sealView is what a finished read takes of a session: all of it must be
// the same after Seal as before.
type sealView struct {
	state          SessionState
	counts         Counts
	ended, elapsed int64
	tokens, cost   float64
}

func viewOf(s *State, id string) sealView {
	ss := s.Session(id)
	return sealView{s.StateOf(id), s.Counts(id), s.Ended(id), s.Elapsed(id, 1000), ss.Tokens, ss.Cost}
}

// TestSealKeepsWhatAReadShows: for every state a session can end a read
// in, Seal keeps its state, counts, times, tokens and cost and lets go of
// its tool calls and texts.
func TestSealKeepsWhatAReadShows(t *testing.T) {
	for _, tc := range []struct {
		name   string
		events []wire.Event
	}{
		{"running", run(tool(S, "msg_2", "prt_1", "bash", "running"))},
		{"complete", run(tool(S, "msg_2", "prt_1", "bash", "completed"), finishedMsg("stop"), status(S, "idle"))},
		{"failed", run(failedMsg("APIError", "bad request"), status(S, "idle"))},
		{"aborted", run(aborted(S), status(S, "idle"))},
		{"interrupted", run(tool(S, "msg_2", "prt_1", "bash", "running"), finishedMsg("tool-calls"), status(S, "idle"))},
		{"denied", run(tool(S, "msg_2", "prt_1", "bash", "error", "error", rejected), finishedMsg("tool-calls"), status(S, "idle"))},
		{"never ran", []wire.Event{created(S, "", "job", 1), status(S, "idle")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := apply(tc.events...)
			before := viewOf(s, S)
			if !s.Seal(S) {
				t.Fatal("not sealed")
			}
			if after := viewOf(s, S); after != before {
				t.Fatalf("after Seal %+v, before %+v", after, before)
			}
			if ss := s.Session(S); ss.Tools != nil || ss.LastText() != "" {
				t.Fatalf("sealed, it still keeps %d calls and %q", len(ss.Tools), ss.LastText())
			}
		})
	}
}

// TestSealLeavesBackgroundParents: a session that launched background
// tasks follows its children, so it is not sealed; its sealed children
// keep what it follows of them.
func TestSealLeavesBackgroundParents(t *testing.T) {
	s, root, kids := loadEndings(t)
	before := viewOf(s, root)
	for _, k := range kids {
		if !s.Seal(k.ID) {
			t.Fatalf("child %s not sealed", k.ID)
		}
	}
	if s.Seal(root) {
		t.Fatal("a session following background children was sealed")
	}
	if after := viewOf(s, root); after != before {
		t.Fatalf("the parent after its children were sealed: %+v, before %+v", after, before)
	}
}

// TestRemoveMessageWithoutItsInfo: a message whose parts came without
// its message.updated takes its tool calls with it when it is removed.
func TestRemoveMessageWithoutItsInfo(t *testing.T) {
	s := apply(created(S, "", "job", 1), status(S, "busy"), tool(S, "msg_1", "prt_1", "bash", "running"))
	s.Apply(wire.MessageRemoved{SessionID: S, MessageID: "msg_1"})
	if ss := s.Session(S); len(ss.Tools) != 0 || s.Counts(S).ToolsRunning != 0 {
		t.Fatalf("calls left: %+v", ss.Tools)
	}
}
