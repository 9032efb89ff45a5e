package watchdog

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// history is what GET /session/{id}/message gives of a session whose
// run (prompt at `at`) called `bash loop` n times and then ended as end:
// "done", "aborted", "failed", "denied" (its last call's permission
// rejected) or "interrupted" (a reply never finished).
func history(id string, at int64, n int, end string) []wire.MessageWithParts {
	user := wire.MessageWithParts{Info: wire.Message{ID: fmt.Sprintf("msg_%04d", at), SessionID: id, Role: "user",
		Time: wire.MessageTime{Created: at}}}
	mid := fmt.Sprintf("msg_%04d", at+1)
	reply := wire.MessageWithParts{Info: wire.Message{ID: mid, SessionID: id, Role: "assistant", Finish: "stop",
		Time: wire.MessageTime{Created: at + 1, Completed: at + 2}}}
	in, _ := json.Marshal(map[string]string{"command": "loop"})
	for i := range n {
		reply.Parts = append(reply.Parts, wire.Part{ID: fmt.Sprintf("prt_%04d_%02d", at, i), SessionID: id, MessageID: mid,
			Type: wire.PartTool, Tool: "bash", CallID: fmt.Sprint(i),
			State: &wire.ToolState{Status: wire.ToolCompleted, Input: in, Time: wire.ToolTime{Start: at + 1, End: at + 1}}})
	}
	switch end {
	case "aborted":
		reply.Info.Error = &wire.ErrorInfo{Name: "MessageAbortedError"}
	case "interrupted":
		reply.Info.Time.Completed, reply.Info.Finish = 0, ""
	case "failed":
		reply.Info.Error = &wire.ErrorInfo{Name: "APIError"}
	case "denied":
		reply.Info.Finish = "tool-calls"
		reply.Parts = append(reply.Parts, wire.Part{ID: fmt.Sprintf("prt_%04d_no", at), SessionID: id, MessageID: mid,
			Type: wire.PartTool, Tool: "bash", CallID: "no", State: &wire.ToolState{Status: wire.ToolError, Input: in,
				Error: "The user rejected permission to use this specific tool call.", Time: wire.ToolTime{Start: at + 1, End: at + 1}}})
	}
	return []wire.MessageWithParts{user, reply}
}

// names is out as "session.done ses_a" strings.
func names(out Out) []string {
	var got []string
	for _, e := range out.Events {
		got = append(got, strings.TrimSpace(e.Name+" "+e.ID))
	}
	return got
}

// snapshot is the REST read of sessions that are all idle (no messages
// read but those given). They were last updated at 35, after the runs
// the tests' baselines hold (10 to 32): a prompt touches its session, so
// no server lists a session updated before its last prompt.
func snapshot(ids ...string) model.Snapshot {
	snap := model.Snapshot{Complete: true, Status: map[string]wire.SessionStatus{}}
	for _, id := range ids {
		snap.Sessions = append(snap.Sessions, wire.Session{ID: id, Title: "task " + id, Time: wire.SessionTime{Created: 1, Updated: 35}})
	}
	return snap
}

// TestHistoryOfTheBaselineIsNotNews: sessions that ended before octop
// started, whose histories are read after the first look, are the
// baseline: neither the reads nor the resyncs after a reconnect announce
// them (their end, their loop), and their marks are kept quietly. A run
// after that is news, once.
func TestHistoryOfTheBaselineIsNotNews(t *testing.T) {
	st, w := model.New(), New(Config{Loop: 3})
	w.AwaitHistory()
	st.ApplySnapshot(snapshot("ses_a", "ses_b", "ses_c"))
	var got []string
	got = append(got, names(w.Resync(st, 1000))...)
	st.ApplyMessages(map[string][]wire.MessageWithParts{"ses_a": history("ses_a", 10, 5, "done"),
		"ses_b": history("ses_b", 20, 1, "aborted"), "ses_c": history("ses_c", 30, 1, "interrupted")})
	got = append(got, names(w.Learn(st, []string{"ses_a", "ses_b", "ses_c"}, 2000))...)
	if w.Marks("ses_a") == nil || w.Marked() != 1 {
		t.Errorf("the looping session's mark is not kept: %v", w.Marks("ses_a"))
	}
	// The server restarts: disconnected, connected, read again.
	got = append(got, names(w.Conn(wire.ConnState{State: wire.Connected}, 3000))...)
	got = append(got, names(w.Conn(wire.ConnState{State: wire.Disconnected}, 4000))...)
	got = append(got, names(w.Conn(wire.ConnState{State: wire.Connected}, 5000))...)
	st.ApplySnapshot(snapshot("ses_a", "ses_b", "ses_c"))
	got = append(got, names(w.Resync(st, 6000))...)
	st.ApplyMessages(map[string][]wire.MessageWithParts{"ses_c": history("ses_c", 30, 1, "interrupted")})
	got = append(got, names(w.Learn(st, []string{"ses_c"}, 7000))...)
	// A new run of ses_b, seen by the stream: news.
	for _, ev := range []wire.Event{msg("ses_b", 40, false), busy("ses_b"), msg("ses_b", 41, true), idle("ses_b")} {
		st.Apply(ev)
		got = append(got, names(w.Events(st, []wire.Event{ev}, 8000))...)
	}
	want := []string{"connection.lost", "connection.restored", "session.started ses_b", "session.done ses_b"}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestHistoryTellsWhatChangedWhileAway: a session last seen running,
// whose end the snapshot after a reconnect cannot tell, waits for its
// history and then gets its true end, once; one born while away and
// already ended gets started and its end; one of the baseline whose
// messages show a run since the last look gets it too.
func TestHistoryTellsWhatChangedWhileAway(t *testing.T) {
	st, w := model.New(), New(Config{})
	w.AwaitHistory()
	st.ApplySnapshot(snapshot("ses_run", "ses_old"))
	st.ApplyMessages(map[string][]wire.MessageWithParts{"ses_old": history("ses_old", 10, 1, "done")})
	w.Resync(st, 1000)
	w.Learn(st, []string{"ses_old"}, 1500)
	var got []string
	for _, ev := range []wire.Event{msg("ses_run", 20, false), busy("ses_run"), call("ses_run", 21, "bash", "make", wire.ToolRunning)} {
		st.Apply(ev)
		got = append(got, names(w.Events(st, []wire.Event{ev}, 2000))...)
	}
	// Away: ses_run is aborted, ses_new runs and completes, ses_old runs
	// again. The snapshot says all idle, with no messages.
	st.ApplySnapshot(snapshot("ses_run", "ses_old", "ses_new"))
	got = append(got, names(w.Resync(st, 3000))...)
	if len(got) != 1 {
		t.Fatalf("the resync guessed before the histories came: %q", got)
	}
	st.ApplyMessages(map[string][]wire.MessageWithParts{"ses_run": history("ses_run", 20, 1, "aborted"),
		"ses_new": history("ses_new", 30, 1, "done"), "ses_old": append(history("ses_old", 10, 1, "done"), history("ses_old", 40, 1, "done")...)})
	got = append(got, names(w.Learn(st, []string{"ses_new", "ses_old", "ses_run"}, 4000))...)
	got = append(got, names(w.Learn(st, []string{"ses_new", "ses_old", "ses_run"}, 5000))...) // read again: nothing new
	want := []string{"session.started ses_run", "session.started ses_new", "session.done ses_new",
		"session.started ses_old", "session.done ses_old", "session.aborted ses_run"}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestHistoryOfTheBaselineCountsAgainstItsRoot: a child's history read
// after its root's takes the root's tree over its budget: the root is
// marked then, quietly, and a resync does not announce it.
func TestHistoryOfTheBaselineCountsAgainstItsRoot(t *testing.T) {
	st, w := model.New(), New(Config{BudgetTokens: 100})
	w.AwaitHistory()
	snap := snapshot("ses_r", "ses_c")
	snap.Sessions[1].ParentID = "ses_r"
	st.ApplySnapshot(snap)
	w.Resync(st, 1000)
	spent := func(id string, at int64) []wire.MessageWithParts {
		h := history(id, at, 0, "done")
		h[1].Info.Tokens = wire.Tokens{Input: 60}
		return h
	}
	var got []string
	for _, id := range []string{"ses_r", "ses_c"} {
		st.ApplyMessages(map[string][]wire.MessageWithParts{id: spent(id, 10)})
		got = append(got, names(w.Learn(st, []string{id}, 2000))...)
	}
	if marks := w.Marks("ses_r"); len(marks) != 1 || marks[0].Kind != Budget {
		t.Errorf("the root's marks %v, want its tree's budget", marks)
	}
	st.ApplySnapshot(snap)
	got = append(got, names(w.Resync(st, 3000))...)
	if len(got) != 0 {
		t.Errorf("old spend announced: %q", got)
	}
}

// TestSealedKeepsItsMarks: a finished session sealed once its history
// was learned (the screen lets go of the calls a sort read) keeps the
// loop mark its calls showed through a resync, as one kept whole does.
func TestSealedKeepsItsMarks(t *testing.T) {
	st, w := model.New(), New(Config{Loop: 3})
	w.AwaitHistory()
	st.ApplySnapshot(snapshot("ses_a"))
	w.Resync(st, 1000)
	st.ApplyMessages(map[string][]wire.MessageWithParts{"ses_a": history("ses_a", 10, 5, "done")})
	w.Learn(st, []string{"ses_a"}, 2000)
	if !st.SealIdle("ses_a") {
		t.Fatal("not sealed")
	}
	st.ApplySnapshot(snapshot("ses_a"))
	if got := names(w.Resync(st, 3000)); len(got) != 0 || w.Marks("ses_a") == nil || w.Marked() != 1 {
		t.Errorf("after a resync: marks %v (%d marked), news %q", w.Marks("ses_a"), w.Marked(), got)
	}
}
