package model

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// tree:
//
//	ses_r2 "second root"            (newest root first)
//	ses_r1 "first root"
//	├ ses_a "alpha (@explore subagent)"
//	│ └ ses_a1 "deep needle"
//	└ ses_b "beta"
func sampleTree() *State {
	return apply(
		created("ses_r1", "", "first root", 1),
		created("ses_a", "ses_r1", "alpha (@explore subagent)", 2),
		created("ses_b", "ses_r1", "beta", 3),
		created("ses_a1", "ses_a", "deep needle", 4),
		created("ses_r2", "", "second root", 5),
	)
}

func rowsString(rows []Row) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%s%s kids=%v open=%v last=%v guides=%v match=%v\n",
			strings.Repeat("  ", int(r.Depth)), r.ID, r.HasChildren, r.Expanded, r.Last, r.Guides, r.Match)
	}
	return b.String()
}

func TestFlatten(t *testing.T) {
	s := sampleTree()
	all := map[string]bool{"ses_r1": true, "ses_a": true, "ses_r2": true, "ses_b": true, "ses_a1": true}
	cases := []struct {
		name     string
		expanded map[string]bool
		filter   string
		want     string
	}{
		{"collapsed", nil, "", `
ses_r2 kids=false open=false last=false guides=[] match=true
ses_r1 kids=true open=false last=true guides=[] match=true
`},
		{"all expanded", all, "", `
ses_r2 kids=false open=false last=false guides=[] match=true
ses_r1 kids=true open=true last=true guides=[] match=true
  ses_a kids=true open=true last=false guides=[false] match=true
    ses_a1 kids=false open=false last=true guides=[false true] match=true
  ses_b kids=false open=false last=true guides=[false] match=true
`},
		{"only the root expanded", map[string]bool{"ses_r1": true}, "", `
ses_r2 kids=false open=false last=false guides=[] match=true
ses_r1 kids=true open=true last=true guides=[] match=true
  ses_a kids=true open=false last=false guides=[false] match=true
  ses_b kids=false open=false last=true guides=[false] match=true
`},
		{"filter keeps ancestors, expanded", nil, "NEEDLE", `
ses_r1 kids=true open=true last=true guides=[] match=false
  ses_a kids=true open=true last=true guides=[false] match=false
    ses_a1 kids=false open=false last=true guides=[false false] match=true
`},
		{"filter by agent in the title and by id", all, "explore", `
ses_r1 kids=true open=true last=true guides=[] match=false
  ses_a kids=true open=false last=true guides=[false] match=true
`},
		{"filter by id", nil, "ses_r2", `
ses_r2 kids=false open=false last=true guides=[] match=true
`},
		{"filter matching nothing", all, "zzz", ``},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := rowsString(Flatten(s, tc.expanded, tc.filter))
			if want := strings.TrimPrefix(tc.want, "\n"); got != want {
				t.Fatalf("got:\n%swant:\n%s", got, want)
			}
		})
	}
}

func TestFlattenFilterByAgent(t *testing.T) {
	s := apply(created("ses_r", "", "root", 1), created("ses_k", "ses_r", "kid", 2),
		wire.SessionUpdated{Info: wire.Session{ID: "ses_k", ParentID: "ses_r", Title: "kid", Agent: "Reviewer",
			Time: wire.SessionTime{Created: 2, Updated: 3}}})
	rows := Flatten(s, nil, "review")
	if len(rows) != 2 || rows[1].ID != "ses_k" || !rows[1].Match || rows[0].Match {
		t.Fatalf("rows:\n%s", rowsString(rows))
	}
}

func TestCountsAndRunningBelow(t *testing.T) {
	s := sampleTree()
	s.Apply(status("ses_a1", "busy"))
	s.Apply(status("ses_b", "busy"))
	if c := s.Counts("ses_r1"); c.RunningBelow != 2 || c.Children != 2 {
		t.Fatalf("root counts = %+v", c)
	}
	if c := s.Counts("ses_a"); c.RunningBelow != 1 || c.Children != 1 {
		t.Fatalf("ses_a counts = %+v", c)
	}
	s.Apply(status("ses_a1", "idle"))
	if c := s.Counts("ses_r1"); c.RunningBelow != 1 {
		t.Fatalf("after idle: %+v", c)
	}
	if c := s.Counts("ses_missing"); c != (Counts{}) {
		t.Fatalf("missing = %+v", c)
	}
	// One waiting on a permission waits below: it does not run.
	s.Apply(wire.PermissionAsked{Request: wire.PermissionRequest{ID: "per_1", SessionID: "ses_b", Permission: "bash"}})
	if c := s.Counts("ses_r1"); c.RunningBelow != 0 || c.WaitingBelow != 1 {
		t.Fatalf("with ses_b waiting: %+v", c)
	}
}

func TestBusyDescendants(t *testing.T) {
	s := sampleTree()
	for _, id := range []string{"ses_r1", "ses_a", "ses_a1", "ses_b", "ses_r2"} {
		s.Apply(status(id, "busy"))
	}
	if got := s.BusyDescendants("ses_r1"); !slices.Equal(got, []string{"ses_a1", "ses_a", "ses_b"}) {
		t.Fatalf("deepest first, subtree only: %v", got)
	}
	s.Apply(status("ses_a", "idle"))
	if got := s.BusyDescendants("ses_r1"); !slices.Equal(got, []string{"ses_a1", "ses_b"}) {
		t.Fatalf("after ses_a idle: %v", got)
	}
	if got := s.BusyDescendants("ses_b"); len(got) != 0 {
		t.Fatalf("leaf: %v", got)
	}
	if got := s.SubtreeIDs("ses_r1"); !slices.Equal(got, []string{"ses_r1", "ses_a", "ses_a1", "ses_b"}) {
		t.Fatalf("subtree ids: %v", got)
	}
}

func TestElapsed(t *testing.T) {
	s := apply(created("ses_a", "", "a", 1000), userMsg("ses_a", "msg_1", 2000), status("ses_a", "busy"))
	if got := s.Elapsed("ses_a", 5000); got != 3000 {
		t.Fatalf("busy elapsed = %d, want 3000", got)
	}
	s.Apply(asstMsg("ses_a", "msg_2", 1, 0, 2100, 4500))
	s.Apply(status("ses_a", "idle"))
	if got := s.Elapsed("ses_a", 99999); got != 2500 {
		t.Fatalf("idle elapsed = %d, want the last run's 2500", got)
	}
	if got := s.Elapsed("ses_none", 5); got != 0 {
		t.Fatalf("missing = %d", got)
	}
	s2 := apply(created("ses_b", "", "b", 1000), status("ses_b", "busy"))
	if got := s2.Elapsed("ses_b", 1500); got != 500 {
		t.Fatalf("no user message yet: %d, want 500 from creation", got)
	}
}

// TestElapsedOfARunCutShort: a run stopped without an end of its own (a
// crash: no reply completed, a call left running) lasts until the last
// thing it was seen doing, and a parent cut off while it waited on its
// task call until its child's; never 0s.
func TestElapsedOfARunCutShort(t *testing.T) {
	s := apply(
		created("ses_r", "", "kill fan", 1000), userMsg("ses_r", "msg_1", 1000), status("ses_r", "busy"),
		asstMsg("ses_r", "msg_2", 0, 0, 1100, 0), tool("ses_r", "msg_2", "prt_1", "task", "running", "start", 1200),
		created("ses_k", "ses_r", "worker 1", 1300), userMsg("ses_k", "msg_3", 1300), status("ses_k", "busy"),
		asstMsg("ses_k", "msg_4", 0, 0, 1400, 0), tool("ses_k", "msg_4", "prt_2", "bash", "running", "start", 45_614),
		status("ses_k", "idle"), status("ses_r", "idle"),
	)
	if k := s.StateOf("ses_r").Kind; k != KindInterrupted {
		t.Fatalf("the root is %v, want interrupted", k)
	}
	if got := s.Elapsed("ses_k", 99_999); got != 44_314 {
		t.Errorf("the child lasted %d ms, want 44314: until its call began", got)
	}
	if got := s.Elapsed("ses_r", 99_999); got != 44_614 {
		t.Errorf("the root lasted %d ms, want 44614: until its child's last call began", got)
	}
	// An abort is an end of its own: the parent's time stops there, not
	// at what a child kept doing after it.
	s.Apply(wire.MessageUpdated{Info: wire.Message{ID: "msg_2", SessionID: "ses_r", Role: "assistant",
		Error: &wire.ErrorInfo{Name: "MessageAbortedError"}, Time: wire.MessageTime{Created: 1100, Completed: 2000}}})
	if got := s.Elapsed("ses_r", 99_999); got != 1000 {
		t.Errorf("the aborted root lasted %d ms, want 1000: until its abort", got)
	}
}
