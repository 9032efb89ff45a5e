package model

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

const S = "ses_s"

// run is a session created while watched, prompted, and replying.
func run(extra ...wire.Event) []wire.Event {
	return append([]wire.Event{created(S, "", "job", 1), userMsg(S, "msg_1", 2), status(S, "busy"),
		asstMsg(S, "msg_2", 10, 0, 3, 0)}, extra...)
}

func failedMsg(name, msg string) wire.Event {
	return wire.MessageUpdated{Info: wire.Message{ID: "msg_2", SessionID: S, Role: "assistant",
		Time:  wire.MessageTime{Created: 3, Completed: 9},
		Error: &wire.ErrorInfo{Name: name, Data: wire.ErrorInfoData{Message: msg}}}}
}

func finishedMsg(finish string) wire.Event {
	return wire.MessageUpdated{Info: wire.Message{ID: "msg_2", SessionID: S, Role: "assistant",
		Finish: finish, Time: wire.MessageTime{Created: 3, Completed: 9}}}
}

const rejected = "The user rejected permission to use this specific tool call."

// TestStateOf: every state a session can be in, from the events that put
// it there, with its reason and one-line detail.
func TestStateOf(t *testing.T) {
	for _, tc := range []struct {
		name   string
		events []wire.Event
		want   SessionState
	}{
		{"running", run(), SessionState{Kind: KindRunning}},
		{"waiting", run(wire.PermissionAsked{Request: wire.PermissionRequest{ID: "per_1", SessionID: S, Permission: "bash"}}),
			SessionState{Kind: KindWaiting, Detail: "asks for a permission or an answer"}},
		{"retrying", run(wire.SessionStatusChanged{SessionID: S, Status: wire.SessionStatus{Type: "retry", Attempt: 2, Message: "rate limited"}}),
			SessionState{Kind: KindRetrying, Detail: "attempt 2: rate limited"}},
		{"never ran", []wire.Event{created(S, "", "job", 1), status(S, "idle")},
			SessionState{Kind: KindIdle, Detail: "never ran"}},
		{"complete", run(finishedMsg("stop"), status(S, "idle")), SessionState{Kind: KindComplete}},
		{"failed", run(failedMsg("APIError", "bad\nrequest"), status(S, "idle")),
			SessionState{Kind: KindFailed, Reason: "APIError", Detail: "APIError: bad request"}},
		{"failed by session.error", run(wire.SessionError{SessionID: S, Error: &wire.ErrorInfo{Name: "ProviderAuthError"}}, status(S, "idle")),
			SessionState{Kind: KindFailed, Reason: "ProviderAuthError", Detail: "ProviderAuthError"}},
		{"aborted", run(aborted(S), status(S, "idle")),
			SessionState{Kind: KindAborted, Reason: "aborted", Detail: "aborted by a user"}},
		{"interrupted: reply never finished", run(status(S, "idle")),
			SessionState{Kind: KindInterrupted, Reason: "interrupted", Detail: "the last reply never finished"}},
		{"interrupted: call left running", run(tool(S, "msg_2", "prt_1", "bash", "running"), finishedMsg("tool-calls"), status(S, "idle")),
			SessionState{Kind: KindInterrupted, Reason: "interrupted", Detail: "a bash call was left running"}},
		{"denied: permission rejected", run(tool(S, "msg_2", "prt_1", "bash", "error", "error", rejected), finishedMsg("tool-calls"), status(S, "idle")),
			SessionState{Kind: KindDenied, Reason: "denied", Detail: "permission to use bash was rejected"}},
		{"denied: permission rejected, 1.1.65's text", run(tool(S, "msg_2", "prt_1", "bash", "error", "error", "Error: "+rejected), finishedMsg("tool-calls"), status(S, "idle")),
			SessionState{Kind: KindDenied, Reason: "denied", Detail: "permission to use bash was rejected"}},
		{"denied: question dismissed", run(tool(S, "msg_2", "prt_1", "question", "error", "error", "The user dismissed this question"), finishedMsg("tool-calls"), status(S, "idle")),
			SessionState{Kind: KindDenied, Reason: "denied", Detail: "a question was dismissed"}},
		{"rejected with feedback, then finished: complete", run(
			tool(S, "msg_2", "prt_1", "bash", "error", "error", rejected[:len(rejected)-1]+" with the following feedback: no"),
			finishedMsg("tool-calls"), asstMsg(S, "msg_3", 1, 0, 10, 11), status(S, "idle")),
			SessionState{Kind: KindComplete}},
		{"rejected with feedback, 1.1.65's text, then finished: complete", run(
			tool(S, "msg_2", "prt_1", "bash", "error", "error", "Error: "+rejected[:len(rejected)-1]+" with the following feedback: no"),
			finishedMsg("tool-calls"), asstMsg(S, "msg_3", 1, 0, 10, 11), status(S, "idle")),
			SessionState{Kind: KindComplete}},
		{"a rejection in an earlier run is history", run(
			tool(S, "msg_2", "prt_1", "bash", "error", "error", rejected), finishedMsg("tool-calls"),
			userMsg(S, "msg_3", 20), asstMsg(S, "msg_4", 1, 0, 21, 22), status(S, "idle")),
			SessionState{Kind: KindComplete}},
		{"a prompt with no reply yet is starting", []wire.Event{created(S, "", "job", 1), userMsg(S, "msg_1", 2), status(S, "idle")},
			SessionState{Kind: KindRunning, Detail: "starting"}},
		// A session listed, not read: the server sends its last prompt
		// again when it adds the prompt's summary, after the run ended.
		{"an old prompt sent again to an unread session is no run", []wire.Event{updated(S, "", "job", 1, 30), status(S, "idle"),
			userMsg(S, "msg_1", 2)}, SessionState{Kind: KindNotLoaded}},
		{"an old prompt of a session not yet listed is no run", []wire.Event{userMsg(S, "msg_1", 2)},
			SessionState{Kind: KindNotLoaded}},
		{"a new prompt to an unread session is starting", []wire.Event{updated(S, "", "job", 1, 30), status(S, "idle"),
			userMsg(S, "msg_5", 40)}, SessionState{Kind: KindRunning, Detail: "starting"}},
		{"a new prompt its session.updated came before is starting", []wire.Event{updated(S, "", "job", 1, 30), status(S, "idle"),
			updated(S, "", "job", 1, 40), userMsg(S, "msg_5", 40)}, SessionState{Kind: KindRunning, Detail: "starting"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := apply(tc.events...)
			if got := s.StateOf(S); got != tc.want {
				t.Fatalf("state %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestNotLoadedUntilMessagesRead: a session known only from a listing
// says so until its history is read, and is listed for reading, newest
// first.
func TestNotLoadedUntilMessagesRead(t *testing.T) {
	s := New()
	s.ApplySnapshot(Snapshot{Complete: true, Sessions: []wire.Session{
		{ID: "ses_old", Time: wire.SessionTime{Created: 1, Updated: 5}},
		{ID: "ses_new", Time: wire.SessionTime{Created: 2, Updated: 9}},
		{ID: "ses_busy", Time: wire.SessionTime{Created: 3, Updated: 7}},
	}, Status: map[string]wire.SessionStatus{"ses_busy": {Type: "busy"}}})
	if got := s.StateOf("ses_old").Kind; got != KindNotLoaded {
		t.Fatalf("unread session: %v", got)
	}
	if got := s.StateOf("ses_busy").Kind; got != KindRunning {
		t.Fatalf("busy session: %v", got)
	}
	if got := s.NeedsHistory(); len(got) != 3 || got[0] != "ses_new" || got[2] != "ses_old" {
		t.Fatalf("needs history %v, want newest first", got)
	}
	s.ApplyMessages(map[string][]wire.MessageWithParts{"ses_old": {
		{Info: wire.Message{ID: "msg_1", SessionID: "ses_old", Role: "user"}},
		{Info: wire.Message{ID: "msg_2", SessionID: "ses_old", Role: "assistant", Error: &wire.ErrorInfo{Name: "APIError"}}},
	}})
	if got := s.StateOf("ses_old"); got.Kind != KindFailed || got.Reason != "APIError" {
		t.Fatalf("after reading: %+v", got)
	}
	if got := s.NeedsHistory(); len(got) != 2 {
		t.Fatalf("still needs %v", got)
	}
	// A resync that finds a session changed while unwatched reads it again.
	s.ApplySnapshot(Snapshot{Complete: true, Sessions: []wire.Session{
		{ID: "ses_old", Time: wire.SessionTime{Created: 1, Updated: 50}},
		{ID: "ses_new", Time: wire.SessionTime{Created: 2, Updated: 9}},
		{ID: "ses_busy", Time: wire.SessionTime{Created: 3, Updated: 7}},
	}})
	if got := s.StateOf("ses_old").Kind; got != KindNotLoaded {
		t.Fatalf("changed while unwatched: %v", got)
	}
}

// TestAgentFollowsNewestPrompt: a resume with another agent relabels the
// session, whatever the session info says.
func TestAgentFollowsNewestPrompt(t *testing.T) {
	info := wire.SessionCreated{Info: wire.Session{ID: S, Agent: "explore", Time: wire.SessionTime{Created: 1, Updated: 1}}}
	prompt := func(id, agent string) wire.Event {
		return wire.MessageUpdated{Info: wire.Message{ID: id, SessionID: S, Role: "user", Agent: agent}}
	}
	s := apply(info, prompt("msg_1", "explore"), prompt("msg_5", "general"), prompt("msg_1", "explore"),
		wire.SessionUpdated{Info: wire.Session{ID: S, Agent: "explore", Time: wire.SessionTime{Created: 1, Updated: 9}}})
	if got := s.Session(S).Agent; got != "general" {
		t.Fatalf("agent %q, want the newest prompt's", got)
	}
}

// TestStreaming: thinking and writing while parts are open, nothing once
// a call starts or the session stops.
func TestStreaming(t *testing.T) {
	reasoning := wire.PartUpdated{Part: wire.Part{ID: "prt_1", SessionID: S, MessageID: "msg_2", Type: wire.PartReasoning,
		Time: &wire.PartTime{Start: 4}}}
	s := apply(run(reasoning)...)
	if got := s.Session(S).Streaming; got != StreamReasoning {
		t.Fatalf("reasoning: %v", got)
	}
	s.Apply(text(S, "msg_2", "prt_2", "hi", 5, 0))
	if got := s.Session(S).Streaming; got != StreamText {
		t.Fatalf("text: %v", got)
	}
	s.Apply(tool(S, "msg_2", "prt_3", "bash", "running"))
	if got := s.Session(S).Streaming; got != StreamNone {
		t.Fatalf("after a call: %v", got)
	}
}

// TestDeniedFromRecordedHistory: the messages a real 1.1.65 server
// answers for a child whose bash ask was rejected (GET
// /session/{id}/message, recorded): the run ends at the rejected call,
// whose error reads "Error: The user rejected permission …", on a reply
// that finished on tool-calls with no error. The child is denied.
func TestDeniedFromRecordedHistory(t *testing.T) {
	raw, err := os.ReadFile("testdata/1.1.65-rejected-child.messages.json")
	if err != nil {
		t.Fatal(err)
	}
	var msgs []wire.MessageWithParts
	if err := json.Unmarshal(raw, &msgs); err != nil {
		t.Fatal(err)
	}
	id := msgs[0].Info.SessionID
	s := New()
	s.ApplySnapshot(Snapshot{Complete: true, Sessions: []wire.Session{{ID: id, Time: wire.SessionTime{Created: 1, Updated: 2}}}})
	s.ApplyMessages(map[string][]wire.MessageWithParts{id: msgs})
	want := SessionState{Kind: KindDenied, Reason: "denied", Detail: "permission to use bash was rejected"}
	if got := s.StateOf(id); got != want {
		t.Fatalf("state %+v, want %+v", got, want)
	}
}
