package model

import (
	"slices"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// resumed is a session that ran 1000-3000, sat idle, and was prompted
// again at 10000; the second run ended at 12500.
func resumed() []wire.Event {
	return []wire.Event{
		created("ses_a", "", "job", 900), userMsg("ses_a", "msg_1", 1000), status("ses_a", "busy"),
		asstMsg("ses_a", "msg_2", 1, 0, 1100, 3000), status("ses_a", "idle"),
		userMsg("ses_a", "msg_3", 10_000), status("ses_a", "busy"),
		asstMsg("ses_a", "msg_4", 1, 0, 10_100, 12_500), status("ses_a", "idle"),
	}
}

// TestRunsOfAResumedSession: a session prompted again after it went idle
// ran twice, and the idle time between is in neither run: its elapsed
// time is the sum of the two, and its end the second's.
func TestRunsOfAResumedSession(t *testing.T) {
	s := apply(resumed()...)
	if got, want := s.Runs("ses_a"), []Run{{1000, 3000}, {10_000, 12_500}}; !slices.Equal(got, want) {
		t.Fatalf("runs %v, want %v", got, want)
	}
	if got := s.Elapsed("ses_a", 99_999); got != 4500 {
		t.Errorf("elapsed %d, want 4500: both runs, not the idle time between", got)
	}
	if got := s.Ended("ses_a"); got != 12_500 {
		t.Errorf("ended %d, want 12500", got)
	}
	// Running again: the third run goes on until now.
	s.Apply(userMsg("ses_a", "msg_5", 20_000))
	s.Apply(status("ses_a", "busy"))
	if got, want := s.Runs("ses_a"), []Run{{1000, 3000}, {10_000, 12_500}, {20_000, 0}}; !slices.Equal(got, want) {
		t.Fatalf("running: runs %v, want %v", got, want)
	}
	if got := s.Elapsed("ses_a", 21_000); got != 5500 {
		t.Errorf("running: elapsed %d, want 5500", got)
	}
	if got := s.Ended("ses_a"); got != 0 {
		t.Errorf("running: ended %d, want 0", got)
	}
}

// TestRunsReadWholeOrWatched: a history read at once gives the same runs
// as the stream did, in any order, and a message sent while the session
// ran (a steer) does not cut its run in two.
func TestRunsReadWholeOrWatched(t *testing.T) {
	msgs := []wire.MessageWithParts{
		{Info: wire.Message{ID: "msg_1", SessionID: "ses_a", Role: "user", Time: wire.MessageTime{Created: 1000}}},
		{Info: wire.Message{ID: "msg_2", SessionID: "ses_a", Role: "assistant", Time: wire.MessageTime{Created: 1100, Completed: 3000}},
			Parts: []wire.Part{{ID: "prt_1", SessionID: "ses_a", MessageID: "msg_2", Type: wire.PartTool, Tool: "bash",
				State: &wire.ToolState{Status: "completed", Time: wire.ToolTime{Start: 1200, End: 2900}}}}},
		// Sent while msg_2 was being written: the run goes on.
		{Info: wire.Message{ID: "msg_3", SessionID: "ses_a", Role: "user", Time: wire.MessageTime{Created: 2000}}},
		{Info: wire.Message{ID: "msg_4", SessionID: "ses_a", Role: "assistant", Time: wire.MessageTime{Created: 3000, Completed: 4000}}},
		{Info: wire.Message{ID: "msg_5", SessionID: "ses_a", Role: "user", Time: wire.MessageTime{Created: 9000}}},
		{Info: wire.Message{ID: "msg_6", SessionID: "ses_a", Role: "assistant", Time: wire.MessageTime{Created: 9100, Completed: 9500}}},
	}
	want := []Run{{1000, 4000}, {9000, 9500}}
	for name, order := range map[string][]int{"in order": {0, 1, 2, 3, 4, 5}, "newest first": {5, 4, 3, 2, 1, 0}} {
		s := apply(created("ses_a", "", "job", 900))
		in := make([]wire.MessageWithParts, 0, len(msgs))
		for _, i := range order {
			in = append(in, msgs[i])
		}
		s.ApplySnapshot(Snapshot{Sessions: []wire.Session{{ID: "ses_a", Time: wire.SessionTime{Created: 900, Updated: 9500}}},
			Messages: map[string][]wire.MessageWithParts{"ses_a": in}})
		if got := s.Runs("ses_a"); !slices.Equal(got, want) {
			t.Errorf("%s: runs %v, want %v", name, got, want)
		}
	}
	// Watched: the steer comes while the reply is still open.
	s := apply(created("ses_a", "", "job", 900), userMsg("ses_a", "msg_1", 1000), status("ses_a", "busy"),
		asstMsg("ses_a", "msg_2", 1, 0, 1100, 0), userMsg("ses_a", "msg_3", 2000),
		asstMsg("ses_a", "msg_2", 1, 0, 1100, 3000), asstMsg("ses_a", "msg_4", 1, 0, 3000, 4000), status("ses_a", "idle"))
	if got := s.Runs("ses_a"); !slices.Equal(got, want[:1]) {
		t.Errorf("watched: runs %v, want %v", got, want[:1])
	}
}

// crashed is a root cut off by a server crash while it waited on its
// task call, whose child ran (and was cut off too) until 45614.
func crashed() []wire.Event {
	return []wire.Event{
		created("ses_r", "", "kill fan", 1000), userMsg("ses_r", "msg_1", 1000), status("ses_r", "busy"),
		asstMsg("ses_r", "msg_2", 0, 0, 1100, 0), tool("ses_r", "msg_2", "prt_1", "task", "running", "start", 1200,
			"metadata", `{"sessionId":"ses_k"}`),
		created("ses_k", "ses_r", "worker 1", 1300), userMsg("ses_k", "msg_3", 1300), status("ses_k", "busy"),
		asstMsg("ses_k", "msg_4", 0, 0, 1400, 0), tool("ses_k", "msg_4", "prt_2", "bash", "running", "start", 45_614),
		status("ses_k", "idle"), status("ses_r", "idle"),
	}
}

// TestCrashedParentHoldsItsChild: a run cut short ends at its last
// activity, and a parent cut off while it waited on its task call ends
// with its child: the call, and so the run, end where the child's run
// ends, so the child lies inside both.
func TestCrashedParentHoldsItsChild(t *testing.T) {
	s := apply(crashed()...)
	if got, want := s.Runs("ses_k"), []Run{{1300, 45_614}}; !slices.Equal(got, want) {
		t.Errorf("child runs %v, want %v", got, want)
	}
	if got, want := s.Runs("ses_r"), []Run{{1000, 45_614}}; !slices.Equal(got, want) {
		t.Errorf("root runs %v, want %v", got, want)
	}
	if start, end, ok := s.CallTimes("ses_r", "prt_1"); !ok || start != 1200 || end != 45_614 {
		t.Errorf("the task call ran %d-%d (%v), want 1200-45614", start, end, ok)
	}
	if start, end, ok := s.CallTimes("ses_k", "prt_2"); !ok || start != 45_614 || end != 45_614 {
		t.Errorf("the child's open call ran %d-%d (%v), want it to end with its run", start, end, ok)
	}
	// Sealed (a finished read), the parent still knows what its call
	// waited on.
	if !s.Seal("ses_r") || !s.Seal("ses_k") {
		t.Fatal("not sealed")
	}
	s.Apply(wire.SessionUpdated{Info: wire.Session{ID: "ses_x", Time: wire.SessionTime{Created: 5, Updated: 5}}})
	if got, want := s.Runs("ses_r"), []Run{{1000, 45_614}}; !slices.Equal(got, want) {
		t.Errorf("sealed root runs %v, want %v", got, want)
	}
}

// TestAbortedParentEndsAtItsAbort: an abort is an end of its own: a call
// the abort left open ends there, whatever its child kept doing.
func TestAbortedParentEndsAtItsAbort(t *testing.T) {
	s := apply(crashed()...)
	s.Apply(wire.MessageUpdated{Info: wire.Message{ID: "msg_2", SessionID: "ses_r", Role: "assistant",
		Error: &wire.ErrorInfo{Name: "MessageAbortedError"}, Time: wire.MessageTime{Created: 1100, Completed: 2000}}})
	if got, want := s.Runs("ses_r"), []Run{{1000, 2000}}; !slices.Equal(got, want) {
		t.Errorf("root runs %v, want %v", got, want)
	}
	if _, end, _ := s.CallTimes("ses_r", "prt_1"); end != 2000 {
		t.Errorf("the open task call ends at %d, want the abort's 2000", end)
	}
}

// TestTaskCallWaitsForItsChild: a task call that the server closed a
// moment before its child stopped (an aborted child, 1.18) lasts until
// the child's run ended, and the parent's run with it; a later run of
// the child (resumed by hand) is not the call's.
func TestTaskCallWaitsForItsChild(t *testing.T) {
	s := apply(
		created("ses_r", "", "fan", 1000), userMsg("ses_r", "msg_1", 1000), status("ses_r", "busy"),
		asstMsg("ses_r", "msg_2", 0, 0, 1100, 0), tool("ses_r", "msg_2", "prt_1", "task", "running", "start", 1200,
			"metadata", `{"sessionId":"ses_k"}`),
		created("ses_k", "ses_r", "worker 1", 1300), userMsg("ses_k", "msg_3", 1300), status("ses_k", "busy"),
		asstMsg("ses_k", "msg_4", 0, 0, 1400, 0),
		tool("ses_r", "msg_2", "prt_1", "task", "error", "start", 1200, "end", 5000, "error", "Task cancelled",
			"metadata", `{"sessionId":"ses_k"}`),
		asstMsg("ses_r", "msg_2", 0, 0, 1100, 5000), status("ses_r", "idle"),
		wire.MessageUpdated{Info: wire.Message{ID: "msg_4", SessionID: "ses_k", Role: "assistant",
			Error: &wire.ErrorInfo{Name: "MessageAbortedError"}, Time: wire.MessageTime{Created: 1400, Completed: 5040}}},
		status("ses_k", "idle"),
		// Resumed by hand long after.
		userMsg("ses_k", "msg_5", 50_000), status("ses_k", "busy"),
		asstMsg("ses_k", "msg_6", 0, 0, 50_100, 52_000), status("ses_k", "idle"),
	)
	if _, end, _ := s.CallTimes("ses_r", "prt_1"); end != 5040 {
		t.Errorf("the task call ends at %d, want its child's first run's 5040", end)
	}
	if got, want := s.Runs("ses_r"), []Run{{1000, 5040}}; !slices.Equal(got, want) {
		t.Errorf("root runs %v, want %v", got, want)
	}
	if got, want := s.Runs("ses_k"), []Run{{1300, 5040}, {50_000, 52_000}}; !slices.Equal(got, want) {
		t.Errorf("child runs %v, want %v", got, want)
	}
}

// TestBackgroundCallLastsUntilItsChildEnds: a background task call
// completes at once on the server, but it, and its parent's run, last
// until the child ends; while the child runs, both go on.
func TestBackgroundCallLastsUntilItsChildEnds(t *testing.T) {
	evs := []wire.Event{
		created("ses_r", "", "bg", 1000), userMsg("ses_r", "msg_1", 1000), status("ses_r", "busy"),
		asstMsg("ses_r", "msg_2", 0, 0, 1100, 1500),
		tool("ses_r", "msg_2", "prt_1", "task", "completed", "start", 1200, "end", 1250,
			"metadata", `{"sessionId":"ses_k","background":true}`, "output", `<task id="ses_k" state="running">`),
		created("ses_k", "ses_r", "worker 1", 1260), userMsg("ses_k", "msg_3", 1260), status("ses_k", "busy"),
		asstMsg("ses_r", "msg_4", 0, 0, 1500, 1600), status("ses_r", "idle"),
	}
	s := apply(evs...)
	if _, end, _ := s.CallTimes("ses_r", "prt_1"); end != 0 {
		t.Errorf("while the child runs the call ends at %d, want 0 (going on)", end)
	}
	if got, want := s.Runs("ses_r"), []Run{{1000, 0}}; !slices.Equal(got, want) {
		t.Errorf("while the child runs: root runs %v, want %v", got, want)
	}
	s.Apply(asstMsg("ses_k", "msg_5", 0, 0, 1300, 9000))
	s.Apply(status("ses_k", "idle"))
	if _, end, _ := s.CallTimes("ses_r", "prt_1"); end != 9000 {
		t.Errorf("the call ends at %d, want the child's end 9000", end)
	}
	// The notice comes and the parent answers it: one run, no gap.
	s.Apply(userMsg("ses_r", "msg_6", 9010))
	s.Apply(wire.PartUpdated{Part: wire.Part{ID: "prt_9", SessionID: "ses_r", MessageID: "msg_6", Type: wire.PartText, Synthetic: true,
		Text: "<task id=\"ses_k\" state=\"completed\">\n<summary>Background task completed: worker 1</summary>\n</task>"}})
	s.Apply(status("ses_r", "busy"))
	s.Apply(asstMsg("ses_r", "msg_7", 0, 0, 9020, 9400))
	s.Apply(status("ses_r", "idle"))
	if got, want := s.Runs("ses_r"), []Run{{1000, 9400}}; !slices.Equal(got, want) {
		t.Errorf("after the notice: root runs %v, want %v", got, want)
	}
}

// TestTaskCallStartsByItsChild: 1.1.65 times a task call from after it
// made its child (the child's prompt 300 ms before the call's start): the
// call began no later than its child's run.
func TestTaskCallStartsByItsChild(t *testing.T) {
	s := apply(
		created("ses_r", "", "fan", 1000), userMsg("ses_r", "msg_1", 1000), status("ses_r", "busy"),
		asstMsg("ses_r", "msg_2", 0, 0, 1100, 0),
		created("ses_k", "ses_r", "worker 1", 1400), userMsg("ses_k", "msg_3", 1500), status("ses_k", "busy"),
		asstMsg("ses_k", "msg_4", 0, 0, 1600, 3000), status("ses_k", "idle"),
		tool("ses_r", "msg_2", "prt_1", "task", "completed", "start", 1800, "end", 3100,
			"metadata", `{"sessionId":"ses_k"}`),
		asstMsg("ses_r", "msg_2", 0, 0, 1100, 3200), status("ses_r", "idle"),
	)
	if start, end, _ := s.CallTimes("ses_r", "prt_1"); start != 1500 || end != 3100 {
		t.Errorf("the task call ran %d-%d, want 1500-3100: from its child's run on", start, end)
	}
}
