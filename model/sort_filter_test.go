package model

import (
	"slices"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// fleet: two roots; r1 has a running explore child that used many tokens,
// a failed general child and a done one; r2 waits on nothing and is done.
func fleet() *State {
	withAgent := func(id, parent, title, agent string, at int64) wire.Event {
		return wire.SessionCreated{Info: wire.Session{ID: id, ParentID: parent, Title: title, Agent: agent,
			Time: wire.SessionTime{Created: at, Updated: at}}}
	}
	return apply(
		withAgent("ses_r1", "", "refactor", "build", 1),
		withAgent("ses_run", "ses_r1", "scan (@explore subagent)", "explore", 2),
		withAgent("ses_bad", "ses_r1", "fix (@general subagent)", "general", 3),
		withAgent("ses_ok", "ses_r1", "docs (@general subagent)", "general", 4),
		withAgent("ses_r2", "", "release notes", "build", 5),
		status("ses_r1", "busy"), status("ses_run", "busy"),
		userMsg("ses_run", "m1", 10), asstMsg("ses_run", "m2", 900, 0.9, 11, 0),
		userMsg("ses_bad", "m3", 10), asstMsg("ses_bad", "m4", 50, 0.05, 12, 40), status("ses_bad", "idle"),
		wire.SessionError{SessionID: "ses_bad", Error: &wire.ErrorInfo{Name: "APIError", Data: wire.ErrorInfoData{Message: "overloaded"}}},
		userMsg("ses_ok", "m5", 10), asstMsg("ses_ok", "m6", 10, 0.01, 13, 90), status("ses_ok", "idle"),
		userMsg("ses_r2", "m7", 20), asstMsg("ses_r2", "m8", 100, 2.0, 21, 30), status("ses_r2", "idle"),
	)
}

func ids(rows []Row) string {
	var out []string
	for _, r := range rows {
		id := strings.TrimPrefix(r.ID, "ses_")
		if !r.Match {
			id = "(" + id + ")"
		}
		out = append(out, strings.Repeat(".", int(r.Depth))+id)
	}
	return strings.Join(out, " ")
}

func TestFilterTerms(t *testing.T) {
	s := fleet()
	for _, tt := range []struct{ filter, want string }{
		{"is:running", "r1 .run"},
		{"is:failed", "(r1) .bad"},
		{"is:done", "r2 (r1) .ok"},
		{"is:failed is:done", "r2 (r1) .bad .ok"},
		{"agent:general", "(r1) .bad .ok"},
		{"agent:GENERAL docs", "(r1) .ok"},
		{"is:running scan", "(r1) .run"},
		{"is:waiting", ""},
		{"is:sleeping", ""},
		{"is:aborted", ""},
		{"release", "r2"},
		{"release notes", "r2"},
		{"RELEASE   Notes", "r2"},
		{"notes release", ""},   // one phrase, not words in any order
		{"ses_r", "r2 r1 .run"}, // the id's beginning
		{"r1", ""},              // inside the id: no
		{"refactor build", ""},  // title and agent are apart
		{"build", "r2 r1"},      // the agent
	} {
		if got := ids(Flatten(s, nil, tt.filter)); got != tt.want {
			t.Errorf("filter %q: rows %q, want %q", tt.filter, got, tt.want)
		}
	}
	if f := ParseFilter("is:sleeping x"); len(f.Bad) != 1 || f.Bad[0] != "is:sleeping" {
		t.Errorf("ParseFilter kept no bad term: %+v", f)
	}
}

// TestFilterIsAPhrase: `worker 1` keeps worker 1 and its ancestors only,
// never worker 2 whose random id holds a 1; `gs root` never `gs other
// root`.
func TestFilterIsAPhrase(t *testing.T) {
	created := func(id, parent, title string, at int64) wire.Event {
		return wire.SessionCreated{Info: wire.Session{ID: id, ParentID: parent, Title: title, Agent: "general",
			Time: wire.SessionTime{Created: at, Updated: at}}}
	}
	s := apply(
		created("ses_root", "", "gs root", 1),
		created("ses_other", "", "gs other root", 2),
		created("ses_a9x", "ses_root", "worker 1 (@general subagent)", 3),
		created("ses_b1y", "ses_root", "worker 2 (@general subagent)", 4),
	)
	for _, tt := range []struct{ filter, want string }{
		{"worker 1", "(root) .a9x"},
		{"Worker  2", "(root) .b1y"},
		{"gs root", "root"},
		{"agent:general worker 1", "(root) .a9x"},
		{"worker is:running 1", ""},
		{"ses_b1", "(root) .b1y"},
	} {
		if got := ids(Flatten(s, nil, tt.filter)); got != tt.want {
			t.Errorf("filter %q: rows %q, want %q", tt.filter, got, tt.want)
		}
	}
}

func TestSortKeys(t *testing.T) {
	s := fleet()
	all := map[string]bool{"ses_r1": true}
	for _, tt := range []struct {
		key  SortKey
		want string
	}{
		{SortNewest, "r2 r1 .run .bad .ok"},
		{SortTokens, "r1 .run .bad .ok r2"},
		{SortCost, "r2 r1 .run .bad .ok"},
		{SortActivity, "r1 .ok .bad .run r2"},
		{SortDuration, "r1 .run .ok .bad r2"},
	} {
		got := ids(FlattenView(s, View{Expanded: all, Sort: tt.key, NowMS: 1000}))
		if got != tt.want {
			t.Errorf("sort by %s: %q, want %q", tt.key, got, tt.want)
		}
	}
	// The filter and the sort combine: the ancestors stay, siblings sorted.
	if got := ids(FlattenView(s, View{Filter: "agent:general", Sort: SortTokens})); got != "(r1) .bad .ok" {
		t.Errorf("filtered and sorted: %q", got)
	}
	k := SortNewest
	var names []string
	for range 5 {
		names = append(names, k.String())
		k = k.Next()
	}
	if k != SortNewest || strings.Join(names, ",") != "newest,last activity,duration,tokens,cost" {
		t.Errorf("cycle: %v then %v", names, k)
	}
}

func TestTodoUpdated(t *testing.T) {
	s := apply(created("ses_a", "", "a", 1))
	v := s.Version()
	s.Apply(wire.TodoUpdated{SessionID: "ses_a", Todos: []wire.Todo{{Content: "one\ntwo", Status: wire.TodoCompleted}, {Content: "three", Status: wire.TodoPending}}})
	got := s.Session("ses_a").Todos()
	if len(got) != 2 || got[0].Content != "one" || got[1].Status != wire.TodoPending || s.Version() == v {
		t.Errorf("todos %+v (version %d → %d)", got, v, s.Version())
	}
	s.Apply(wire.TodoUpdated{SessionID: "ses_a"})
	if s.Session("ses_a").Todos() != nil {
		t.Errorf("an empty list left %+v", s.Session("ses_a").Todos())
	}
	s.Apply(wire.TodoUpdated{SessionID: "ses_nope", Todos: []wire.Todo{{Content: "x"}}})
	if s.Session("ses_nope") != nil {
		t.Error("a todo list made a session")
	}
}

// A completed todowrite call sets the list too (its input is the whole
// list), so a history read shows it; an older call read after a newer one
// changes nothing, and a running one waits until it completes.
func TestTodoWrite(t *testing.T) {
	list := func(done string) string {
		return `{"todos":[{"content":"fan out","status":"` + done + `","priority":"high"},{"content":"report","status":"pending","priority":"low"}]}`
	}
	s := apply(created("ses_a", "", "a", 1), asstMsg("ses_a", "msg_1", 0, 0, 2, 0),
		tool("ses_a", "msg_1", "prt_2", "todowrite", wire.ToolRunning, "input", list("in_progress")))
	if s.Session("ses_a").Todos() != nil {
		t.Fatalf("a running todowrite set the list: %+v", s.Session("ses_a").Todos())
	}
	s.Apply(tool("ses_a", "msg_1", "prt_2", "todowrite", wire.ToolCompleted, "input", list("completed")))
	got := s.Session("ses_a").Todos()
	if len(got) != 2 || got[0].Content != "fan out" || got[0].Status != wire.TodoCompleted || got[1].Status != wire.TodoPending {
		t.Fatalf("after the call: %+v", got)
	}
	s.Apply(tool("ses_a", "msg_1", "prt_1", "todowrite", wire.ToolCompleted, "input", list("pending")))
	if got := s.Session("ses_a").Todos(); got[0].Status != wire.TodoCompleted {
		t.Errorf("an older call replaced the list: %+v", got)
	}
	s.Apply(wire.TodoUpdated{SessionID: "ses_a", Todos: []wire.Todo{{Content: "only", Status: wire.TodoInProgress}}})
	if got := s.Session("ses_a").Todos(); len(got) != 1 || got[0].Content != "only" {
		t.Errorf("todo.updated after a call: %+v", got)
	}
}

// TestIsFailedIsKindBad: is:failed keeps what Kind.Bad calls bad and
// nothing else, the rule the header's failed count reads.
func TestIsFailedIsKindBad(t *testing.T) {
	f := ParseFilter("is:failed")
	for k := range Kind(len(kindWords)) {
		if got := slices.Contains(f.Is, k); got != k.Bad() {
			t.Errorf("is:failed keeps %v: %v; Kind.Bad says %v", k, got, k.Bad())
		}
	}
}
