package model

import (
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// abortOf1165 is a child's run as a real 1.1.65 aborts it mid-call: the
// server goes idle first, and writes the reply's MessageAbortedError, the
// cut call and the reply's end only after (a second or more later on a
// loaded machine).
func abortOf1165(id string) (run, idle, said []wire.Event) {
	run = []wire.Event{created(id, "", "runaway 1", 1), userMsg(id, "msg_1", 10), status(id, "busy"),
		asstMsg(id, "msg_2", 0, 0, 11, 0), tool(id, "msg_2", "prt_1", "bash", "running", "start", 12)}
	idle = []wire.Event{status(id, "idle"), wire.SessionIdle{SessionID: id}}
	end := asstMsg(id, "msg_2", 0, 0, 11, 40).(wire.MessageUpdated)
	end.Info.Error = &wire.ErrorInfo{Name: "MessageAbortedError", Data: wire.ErrorInfoData{Message: "The operation was aborted."}}
	said = []wire.Event{aborted(id), status(id, "idle"),
		tool(id, "msg_2", "prt_1", "bash", "error", "error", "Tool execution aborted", "start", 39, "end", 39), end}
	return run, idle, said
}

// TestReasonNeverFlips: with 1.1.65's order, the session reads stopping
// (running) from its idle until the server says aborted, never
// interrupted on the way; its call runs until then, and is aborted from
// the session's abort on, never interrupted.
func TestReasonNeverFlips(t *testing.T) {
	const P = "ses_p"
	run, idle, said := abortOf1165(P)
	s := New()
	now := int64(1_000)
	s.SetNow(now)
	for _, ev := range run {
		s.Apply(ev)
	}
	var reasons []string
	look := func() {
		st, c := s.StateOf(P), s.Session(P).CallStatus(0)
		reasons = append(reasons, st.Kind.String()+"/"+st.Reason+"/"+c.String())
	}
	for _, ev := range append(idle, said...) {
		now += 300 // the server says it within the grace
		s.SetNow(now)
		s.Apply(ev)
		look()
	}
	want := []string{"running/stopping/running", "running/stopping/running", "aborted/aborted/aborted",
		"aborted/aborted/aborted", "aborted/aborted/aborted", "aborted/aborted/aborted"}
	if len(reasons) != len(want) {
		t.Fatalf("reasons %v", reasons)
	}
	for i := range want {
		if reasons[i] != want[i] {
			t.Errorf("after event %d: %s, want %s (all: %v)", i, reasons[i], want[i], reasons)
		}
	}
	if s.Counts(P).ToolsInterrupted != 0 {
		t.Errorf("counts %+v: no call was interrupted", s.Counts(P))
	}
}

// TestStopWithNoWordSettlesInterrupted: a run that stopped and never says
// how (the server died, or stopped it without a word) reads stopping for
// the grace, then interrupted, its open call too, and the change reaches
// the rows (its version moves).
func TestStopWithNoWordSettlesInterrupted(t *testing.T) {
	const P = "ses_p"
	run, idle, _ := abortOf1165(P)
	s := New()
	s.SetNow(1_000)
	for _, ev := range append(run, idle...) {
		s.Apply(ev)
	}
	if st := s.StateOf(P); st.Kind != KindRunning || st.Reason != ReasonStopping || s.Session(P).CallStatus(0) != ToolRunning {
		t.Fatalf("just idle: %+v, call %v; want stopping, running", st, s.Session(P).CallStatus(0))
	}
	if ids, until := s.Stopping(); len(ids) != 1 || until != 1_000+Grace {
		t.Errorf("Stopping() = %v, %d", ids, until)
	}
	v := s.SessionVersion(P)
	s.SetNow(1_000 + Grace - 1)
	if k := s.StateOf(P).Kind; k != KindRunning {
		t.Errorf("within the grace: %v", k)
	}
	s.SetNow(1_000 + Grace)
	if st := s.StateOf(P); st.Kind != KindInterrupted || s.Session(P).CallStatus(0) != ToolInterrupted || s.SessionVersion(P) == v {
		t.Errorf("after the grace: %+v, call %v, version %d (was %d)", st, s.Session(P).CallStatus(0), s.SessionVersion(P), v)
	}
	if c := s.Tally(); c.Failed != 1 || c.Running != 0 {
		t.Errorf("header counts %+v: want it failed, not running", c)
	}
	// A new run forgets the stop; the next stop has a grace of its own.
	s.Apply(userMsg(P, "msg_3", 60))
	s.Apply(status(P, "busy"))
	s.Apply(asstMsg(P, "msg_4", 0, 0, 61, 0))
	s.Apply(status(P, "idle"))
	if st := s.StateOf(P); st.Reason != ReasonStopping {
		t.Errorf("the second stop: %+v, want stopping", st)
	}
}

// TestReadersCarryTheirFirstSight: a reader that builds a new State for
// each REST read (octop result, wait) passes on when it first saw the
// stop (Stops): the grace runs from there; a read that finds a stop whose
// run went quiet long ago trusts it at once.
func TestReadersCarryTheirFirstSight(t *testing.T) {
	const P = "ses_p"
	msgs := []wire.MessageWithParts{
		{Info: wire.Message{ID: "msg_1", SessionID: P, Role: "user", Time: wire.MessageTime{Created: 10}}},
		{Info: wire.Message{ID: "msg_2", SessionID: P, Role: "assistant", Time: wire.MessageTime{Created: 11}},
			Parts: []wire.Part{{ID: "prt_1", SessionID: P, MessageID: "msg_2", Type: wire.PartTool, Tool: "bash",
				State: &wire.ToolState{Status: "running", Time: wire.ToolTime{Start: 12}}}}},
	}
	read := func(now int64, stops map[string]int64) *State {
		s := New()
		s.SetNow(now)
		s.ApplySnapshot(Snapshot{Sessions: []wire.Session{{ID: P, Time: wire.SessionTime{Created: 1, Updated: 1}}}, Complete: true,
			Messages: map[string][]wire.MessageWithParts{P: msgs}, Stops: stops})
		return s
	}
	first := read(100, nil)
	if st := first.StateOf(P); st.Reason != ReasonStopping {
		t.Fatalf("first read: %+v, want stopping", st)
	}
	if st := read(100+Grace, nil).StateOf(P); st.Reason != ReasonStopping {
		t.Errorf("a new read that forgot the first: %+v, want stopping again", st)
	}
	if st := read(100+Grace, first.Stops()).StateOf(P); st.Kind != KindInterrupted {
		t.Errorf("a later read carrying the first sight: %+v, want interrupted", st)
	}
	if st := read(12+stopHorizon+1, nil).StateOf(P); st.Kind != KindInterrupted {
		t.Errorf("a stop whose run went quiet long ago: %+v, want interrupted at once", st)
	}
	if st := New(); st != nil {
		s := New()
		s.ApplySnapshot(Snapshot{Sessions: []wire.Session{{ID: P}}, Complete: true, Messages: map[string][]wire.MessageWithParts{P: msgs}})
		if k := s.StateOf(P).Kind; k != KindInterrupted {
			t.Errorf("a State never told the time: %v, want interrupted (no grace)", k)
		}
	}
}
