package model

import (
	"slices"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

func TestApply(t *testing.T) {
	const P, C, G = "ses_p", "ses_c", "ses_g"
	cases := []struct {
		name  string
		evs   []wire.Event
		check func(t *testing.T, s *State)
	}{
		{"created root", []wire.Event{created(P, "", "root", 10)}, func(t *testing.T, s *State) {
			ss := s.Session(P)
			if ss == nil || !ss.Known || ss.Title != "root" || ss.Created != 10 {
				t.Fatalf("session = %+v", ss)
			}
			if r := s.Roots(); !slices.Equal(r, []string{P}) {
				t.Fatalf("roots = %v", r)
			}
		}},
		{"created child links to parent", []wire.Event{created(P, "", "root", 10), created(C, P, "kid", 20)}, func(t *testing.T, s *State) {
			if !slices.Equal(s.Session(P).ChildIDs(), []string{C}) || !slices.Equal(s.Roots(), []string{P}) {
				t.Fatalf("children %v roots %v", s.Session(P).ChildIDs(), s.Roots())
			}
		}},
		{"child before parent is adopted", []wire.Event{created(C, P, "kid", 20), created(P, "", "root", 10)}, func(t *testing.T, s *State) {
			if !slices.Equal(s.Session(P).ChildIDs(), []string{C}) || !slices.Equal(s.Roots(), []string{P}) || s.Len() != 2 {
				t.Fatalf("children %v roots %v len %d", s.Session(P).ChildIDs(), s.Roots(), s.Len())
			}
		}},
		{"children in creation order whatever the arrival", []wire.Event{
			created(P, "", "root", 10), created("ses_c3", P, "c3", 30), created("ses_c1", P, "c1", 10), created("ses_c2", P, "c2", 20)},
			func(t *testing.T, s *State) {
				if got := s.Session(P).ChildIDs(); !slices.Equal(got, []string{"ses_c1", "ses_c2", "ses_c3"}) {
					t.Fatalf("children = %v", got)
				}
			}},
		{"roots newest first", []wire.Event{created("ses_a", "", "a", 10), created("ses_b", "", "b", 30), created("ses_c", "", "c", 20)},
			func(t *testing.T, s *State) {
				if got := s.Roots(); !slices.Equal(got, []string{"ses_b", "ses_c", "ses_a"}) {
					t.Fatalf("roots = %v", got)
				}
			}},
		{"older update does not roll back the title", []wire.Event{
			created(P, "", "first", 10), updated(P, "", "second", 10, 30), updated(P, "", "stale", 10, 20)},
			func(t *testing.T, s *State) {
				if got := s.Session(P).Title; got != "second" {
					t.Fatalf("title = %q", got)
				}
			}},
		{"deleted stays deleted", []wire.Event{
			created(P, "", "root", 10), created(C, P, "kid", 20),
			wire.SessionDeleted{Info: wire.Session{ID: C}},
			tool(C, "msg_1", "prt_1", "bash", "running"), status(C, "busy")},
			func(t *testing.T, s *State) {
				if s.Session(C) != nil || len(s.Session(P).ChildIDs()) != 0 || s.Len() != 1 {
					t.Fatalf("deleted child is back: len %d children %v", s.Len(), s.Session(P).ChildIDs())
				}
			}},
		{"status busy, retry, idle", []wire.Event{created(P, "", "r", 1), status(P, "busy")}, func(t *testing.T, s *State) {
			if s.display(P) != DisplayBusy {
				t.Fatalf("display = %d", s.display(P))
			}
			s.Apply(wire.SessionStatusChanged{SessionID: P, Status: wire.SessionStatus{Type: "retry", Attempt: 2, Message: "rate limited", Next: 99}})
			if ss := s.Session(P); s.display(P) != DisplayRetry || ss.Retry() != (Retry{Attempt: 2, Message: "rate limited", At: 99}) {
				t.Fatalf("retry: display %d session %+v", s.display(P), ss)
			}
			s.Apply(wire.SessionIdle{SessionID: P})
			if ss := s.Session(P); s.display(P) != DisplayIdle || ss.Retry().Attempt != 0 {
				t.Fatalf("idle: display %d session %+v", s.display(P), ss)
			}
		}},
		{"status before created makes one placeholder", []wire.Event{status(C, "busy")}, func(t *testing.T, s *State) {
			if ss := s.Session(C); ss == nil || ss.Known || s.display(C) != DisplayBusy {
				t.Fatalf("placeholder = %+v", ss)
			}
			s.Apply(created(P, "", "root", 1))
			s.Apply(created(C, P, "kid", 2))
			if ss := s.Session(C); !ss.Known || ss.Title != "kid" || s.display(C) != DisplayBusy || s.Len() != 2 ||
				!slices.Equal(s.Session(P).ChildIDs(), []string{C}) {
				t.Fatalf("after created: %+v len %d", ss, s.Len())
			}
		}},
		{"idle for an unknown id makes nothing", []wire.Event{status("ses_nonexistent", "idle"), wire.SessionIdle{SessionID: "ses_nonexistent"}, aborted("ses_nonexistent")},
			func(t *testing.T, s *State) {
				if s.Len() != 0 {
					t.Fatalf("len = %d", s.Len())
				}
			}},
		{"abort marks the error until the next run", []wire.Event{created(P, "", "r", 1), status(P, "busy"), aborted(P), status(P, "idle")},
			func(t *testing.T, s *State) {
				if ss := s.Session(P); s.StateOf(P).Kind != KindAborted || s.display(P) != DisplayIdle || ss.Err.Name != "MessageAbortedError" {
					t.Fatalf("state %+v err %v", s.StateOf(P), ss.Err)
				}
				s.Apply(status(P, "busy"))
				if ss := s.Session(P); s.display(P) != DisplayBusy || ss.Err != nil {
					t.Fatalf("new run: display %d err %v", s.display(P), ss.Err)
				}
			}},
		{"aborted message error sets Err", []wire.Event{created(P, "", "r", 1), status(P, "busy"),
			wire.MessageUpdated{Info: wire.Message{ID: "msg_2", SessionID: P, Role: "assistant",
				Error: &wire.ErrorInfo{Name: "MessageAbortedError", Data: wire.ErrorInfoData{Message: "Aborted"}}}},
			status(P, "idle")},
			func(t *testing.T, s *State) {
				if got := s.StateOf(P); got.Kind != KindAborted || got.Detail != "aborted by a user" {
					t.Fatalf("state = %+v", got)
				}
			}},
		{"message totals win over step-finish", []wire.Event{created(P, "", "r", 1),
			step(P, "msg_1", "prt_s1", 15, 0.5), asstMsg(P, "msg_1", 15, 0.5, 2, 3), step(P, "msg_1", "prt_s1", 15, 0.5),
			asstMsg(P, "msg_2", 10, 0.25, 4, 5)},
			func(t *testing.T, s *State) {
				if ss := s.Session(P); ss.Tokens != 25 || ss.Cost != 0.75 {
					t.Fatalf("tokens %v cost %v, want 25 0.75", ss.Tokens, ss.Cost)
				}
			}},
		{"step-finish summed when the message has no totals", []wire.Event{created(P, "", "r", 1),
			step(P, "msg_1", "prt_s1", 10, 0.1), step(P, "msg_1", "prt_s2", 5, 0.2), step(P, "msg_1", "prt_s2", 5, 0.2)},
			func(t *testing.T, s *State) {
				if ss := s.Session(P); ss.Tokens != 15 || ss.Cost < 0.3-1e-12 || ss.Cost > 0.3+1e-12 {
					t.Fatalf("tokens %v cost %v, want 15 0.3", ss.Tokens, ss.Cost)
				}
			}},
		{"subtree totals include children", []wire.Event{created(P, "", "r", 1), created(C, P, "c", 2), created(G, C, "g", 3),
			asstMsg(P, "msg_1", 1, 1, 1, 1), asstMsg(C, "msg_2", 10, 2, 1, 1), asstMsg(G, "msg_3", 100, 4, 1, 1)},
			func(t *testing.T, s *State) {
				if c := s.Counts(P); c.Tokens != 111 || c.Cost != 7 {
					t.Fatalf("subtree(P) = %+v", c)
				}
				if c := s.Counts(C); c.Tokens != 110 || c.Cost != 6 {
					t.Fatalf("subtree(C) = %+v", c)
				}
				if s.Session(P).Tokens != 1 {
					t.Fatalf("own tokens = %v", s.Session(P).Tokens)
				}
			}},
		{"message removed drops its tools and tokens", []wire.Event{created(P, "", "r", 1), asstMsg(P, "msg_1", 10, 1, 1, 2),
			tool(P, "msg_1", "prt_1", "bash", "completed"), asstMsg(P, "msg_2", 5, 1, 3, 4), tool(P, "msg_2", "prt_2", "read", "completed"),
			wire.MessageRemoved{SessionID: P, MessageID: "msg_1"}},
			func(t *testing.T, s *State) {
				ss := s.Session(P)
				if len(ss.Tools) != 1 || ss.Tools[0].PartID != "prt_2" || ss.Tokens != 5 || s.Counts(P).ToolsDone != 1 {
					t.Fatalf("tools %+v tokens %v counts %+v", ss.Tools, ss.Tokens, s.Counts(P))
				}
			}},
		{"tool lifecycle", []wire.Event{created(P, "", "r", 1), status(P, "busy"),
			tool(P, "msg_1", "prt_1", "bash", "pending")},
			func(t *testing.T, s *State) {
				if c := s.Counts(P); c.ToolsRunning != 1 {
					t.Fatalf("pending counts = %+v", c)
				}
				s.Apply(tool(P, "msg_1", "prt_1", "bash", "running", "input", `{"command":"go test ./...\necho hi","description":"run"}`, "start", 100))
				tc := s.Session(P).Tools[0]
				if tc.Status != ToolRunning || tc.Input != "go test ./..." || tc.Start != 100 || tc.Tool != "bash" {
					t.Fatalf("running = %+v", tc)
				}
				long := strings.Repeat("é", 1000)
				s.Apply(tool(P, "msg_1", "prt_1", "bash", "completed", "input", `{"command":"go test ./..."}`, "output", long, "title", "tests", "start", 100, "end", 250))
				tc = s.Session(P).Tools[0]
				if tc.Status != ToolCompleted || tc.End != 250 || tc.Title != "tests" {
					t.Fatalf("completed = %+v", tc)
				}
				if c := s.Counts(P); c.ToolsRunning != 0 || c.ToolsDone != 1 {
					t.Fatalf("counts = %+v", c)
				}
			}},
		{"running output is followed, then dropped", []wire.Event{created(P, "", "r", 1), status(P, "busy"),
			tool(P, "msg_1", "prt_1", "bash", "running", "metadata", `{"output":"step 1\n"}`),
			tool(P, "msg_1", "prt_1", "bash", "running", "metadata", `{"output":"step 1\nstep 2\n"}`)},
			func(t *testing.T, s *State) {
				if got := s.Session(P).Tools[0].LiveTail; got != "step 1\nstep 2\n" {
					t.Fatalf("live tail = %q", got)
				}
				s.Apply(tool(P, "msg_1", "prt_1", "bash", "running", "metadata", `{"output":"`+strings.Repeat("x", 1000)+`END"}`))
				if got := s.Session(P).Tools[0].LiveTail; len(got) > maxHead || !strings.HasSuffix(got, "END") {
					t.Fatalf("live tail is %d bytes: %q", len(got), got)
				}
				s.Apply(tool(P, "msg_1", "prt_1", "bash", "completed", "output", "all", "metadata", `{"output":"all"}`))
				if tc := s.Session(P).Tools[0]; tc.LiveTail != "" {
					t.Fatalf("ended call: %+v", tc)
				}
			}},
		{"tool error", []wire.Event{created(P, "", "r", 1), status(P, "busy"),
			tool(P, "msg_1", "prt_1", "read", "error", "input", `{"filePath":"/a/b.go"}`, "error", "no such file")},
			func(t *testing.T, s *State) {
				tc := s.Session(P).Tools[0]
				if tc.Status != ToolError || tc.Error != "no such file" || tc.Input != "/a/b.go" || s.Counts(P).ToolsFailed != 1 {
					t.Fatalf("tool %+v counts %+v", tc, s.Counts(P))
				}
			}},
		{"ended tool does not go back to running", []wire.Event{created(P, "", "r", 1),
			tool(P, "msg_1", "prt_1", "bash", "running"), tool(P, "msg_1", "prt_1", "bash", "completed", "output", "ok"),
			tool(P, "msg_1", "prt_1", "bash", "running")},
			func(t *testing.T, s *State) {
				if tc := s.Session(P).Tools[0]; tc.Status != ToolCompleted || s.Counts(P).ToolsDone != 1 || s.Counts(P).ToolsRunning != 0 {
					t.Fatalf("tool %+v counts %+v", tc, s.Counts(P))
				}
			}},
		{"tools kept in part order whatever the arrival", []wire.Event{created(P, "", "r", 1),
			tool(P, "msg_1", "prt_3", "bash", "running"), tool(P, "msg_1", "prt_1", "read", "running"), tool(P, "msg_1", "prt_2", "grep", "running")},
			func(t *testing.T, s *State) {
				var got []string
				for _, tc := range s.Session(P).Tools {
					got = append(got, tc.PartID)
				}
				if !slices.Equal(got, []string{"prt_1", "prt_2", "prt_3"}) {
					t.Fatalf("order = %v", got)
				}
			}},
		{"part before its session is known", []wire.Event{tool(C, "msg_1", "prt_1", "bash", "running"), created(C, P, "kid", 5), created(P, "", "root", 1)},
			func(t *testing.T, s *State) {
				ss := s.Session(C)
				if s.Len() != 2 || !ss.Known || len(ss.Tools) != 1 || !slices.Equal(s.Session(P).ChildIDs(), []string{C}) {
					t.Fatalf("len %d session %+v", s.Len(), ss)
				}
			}},
		{"part removed", []wire.Event{created(P, "", "r", 1), tool(P, "msg_1", "prt_1", "bash", "running"),
			wire.PartRemoved{SessionID: P, MessageID: "msg_1", PartID: "prt_1"}},
			func(t *testing.T, s *State) {
				if len(s.Session(P).Tools) != 0 || s.Counts(P).ToolsRunning != 0 {
					t.Fatalf("tools = %+v", s.Session(P).Tools)
				}
			}},
		{"running tool of an aborted session is aborted", []wire.Event{created(P, "", "r", 1), status(P, "busy"),
			tool(P, "msg_1", "prt_1", "bash", "running"), aborted(P), status(P, "idle")},
			func(t *testing.T, s *State) {
				ss := s.Session(P)
				if ss.CallStatus(0) != ToolAborted || ss.Tools[0].Status != ToolRunning {
					t.Fatalf("shown %v stored %v", ss.CallStatus(0), ss.Tools[0].Status)
				}
				if c := s.Counts(P); c.ToolsRunning != 0 || c.ToolsFailed != 0 || c.ToolsAborted != 1 || c.Tools() != 1 {
					t.Fatalf("counts = %+v", c)
				}
			}},
		{"running tool of an idle session is interrupted", []wire.Event{created(P, "", "r", 1), status(P, "busy"),
			tool(P, "msg_1", "prt_1", "bash", "running"), status(P, "idle")},
			func(t *testing.T, s *State) {
				ss := s.Session(P)
				if ss.CallStatus(0) != ToolInterrupted || ss.Tools[0].Status != ToolRunning {
					t.Fatalf("shown %v stored %v", ss.CallStatus(0), ss.Tools[0].Status)
				}
				if c := s.Counts(P); c.ToolsRunning != 0 || c.ToolsFailed != 0 || c.ToolsInterrupted != 1 || c.Tools() != 1 {
					t.Fatalf("counts = %+v", c)
				}
			}},
		{"open tool of a session whose status is unknown stays running", []wire.Event{tool(P, "msg_1", "prt_1", "bash", "running")},
			func(t *testing.T, s *State) {
				if ss := s.Session(P); ss.CallStatus(0) != ToolRunning || s.Counts(P).ToolsRunning != 1 {
					t.Fatalf("shown %d counts %+v", ss.CallStatus(0), s.Counts(P))
				}
			}},
		{"text, deltas and the final update", []wire.Event{created(P, "", "r", 1), userMsg(P, "msg_1", 5),
			text(P, "msg_1", "prt_1", "do the thing", 0, 0),
			asstMsg(P, "msg_2", 0, 0, 6, 0), text(P, "msg_2", "prt_2", "", 6, 0), delta(P, "msg_2", "prt_2", "all "), delta(P, "msg_2", "prt_2", "done")},
			func(t *testing.T, s *State) {
				if got := s.Session(P).LastText(); got != "all done" {
					t.Fatalf("streaming text = %q", got)
				}
				s.Apply(text(P, "msg_2", "prt_2", "all done.", 6, 9))
				s.Apply(delta(P, "msg_2", "prt_2", "late duplicate"))
				s.Apply(text(P, "msg_2", "prt_2", "all", 6, 0))
				if got := s.Session(P).LastText(); got != "all done." {
					t.Fatalf("final text = %q", got)
				}
			}},
		{"reasoning deltas are not the reply", []wire.Event{created(P, "", "r", 1), asstMsg(P, "msg_2", 0, 0, 6, 0),
			text(P, "msg_2", "prt_2", "answer", 6, 7),
			wire.PartUpdated{Part: wire.Part{ID: "prt_3", SessionID: P, MessageID: "msg_2", Type: wire.PartReasoning}},
			delta(P, "msg_2", "prt_3", "thinking")},
			func(t *testing.T, s *State) {
				if got := s.Session(P).LastText(); got != "answer" {
					t.Fatalf("text = %q", got)
				}
			}},
		{"last text is bounded to its tail", []wire.Event{created(P, "", "r", 1), asstMsg(P, "msg_2", 0, 0, 6, 0),
			text(P, "msg_2", "prt_2", "", 6, 0), delta(P, "msg_2", "prt_2", strings.Repeat("a", 5000)), delta(P, "msg_2", "prt_2", "END")},
			func(t *testing.T, s *State) {
				got := s.Session(P).LastText()
				if len(got) > maxText || !strings.HasSuffix(got, "END") {
					t.Fatalf("text is %d bytes, ends %q", len(got), got[len(got)-5:])
				}
			}},
		{"permission makes the session wait", []wire.Event{created(P, "", "r", 1), status(P, "busy"),
			wire.PermissionAsked{Request: wire.PermissionRequest{ID: "per_1", SessionID: P, Permission: "bash"}}},
			func(t *testing.T, s *State) {
				if s.display(P) != DisplayWaiting || len(s.Permissions(P)) != 1 || s.Pending() != 1 || !slices.Equal(s.Waiting(), []string{P}) {
					t.Fatalf("display %d perms %v", s.display(P), s.Permissions(P))
				}
				s.Apply(wire.PermissionReplied{SessionID: P, RequestID: "per_1", Reply: "once"})
				s.Apply(wire.PermissionReplied{SessionID: P, RequestID: "per_1", Reply: "once"})
				if s.display(P) != DisplayBusy || len(s.Permissions(P)) != 0 || s.Pending() != 0 || len(s.Waiting()) != 0 {
					t.Fatalf("after reply: display %d perms %v", s.display(P), s.Permissions(P))
				}
			}},
		{"question asked, replied, rejected", []wire.Event{created(P, "", "r", 1), status(P, "busy"),
			wire.QuestionAsked{Request: wire.QuestionRequest{ID: "que_1", SessionID: P}},
			wire.QuestionAsked{Request: wire.QuestionRequest{ID: "que_1", SessionID: P}},
			wire.QuestionAsked{Request: wire.QuestionRequest{ID: "que_2", SessionID: P}}},
			func(t *testing.T, s *State) {
				if s.display(P) != DisplayWaiting || len(s.Questions(P)) != 2 {
					t.Fatalf("display %d questions %v", s.display(P), s.Questions(P))
				}
				s.Apply(wire.QuestionReplied{SessionID: P, RequestID: "que_1"})
				if s.display(P) != DisplayWaiting {
					t.Fatalf("one question left, display %d", s.display(P))
				}
				s.Apply(wire.QuestionRejected{SessionID: P, RequestID: "que_2"})
				if s.display(P) != DisplayBusy {
					t.Fatalf("display %d", s.display(P))
				}
			}},
		{"idle voids pending requests", []wire.Event{created(P, "", "r", 1), status(P, "busy"),
			wire.PermissionAsked{Request: wire.PermissionRequest{ID: "per_1", SessionID: P}}, status(P, "idle")},
			func(t *testing.T, s *State) {
				if s.display(P) != DisplayIdle || s.Pending() != 0 {
					t.Fatalf("display %d pending %d", s.display(P), s.Pending())
				}
			}},
		{"unknown and connection events change nothing", []wire.Event{wire.ServerConnected{}, wire.ServerHeartbeat{}, wire.Unknown{Type: "session.diff"}},
			func(t *testing.T, s *State) {
				if s.Len() != 0 || s.Version() != 0 {
					t.Fatalf("len %d version %d", s.Len(), s.Version())
				}
			}},
		{"version moves on change", []wire.Event{created(P, "", "r", 1)}, func(t *testing.T, s *State) {
			v := s.Version()
			s.Apply(status(P, "busy"))
			if s.Version() <= v {
				t.Fatalf("version %d after %d", s.Version(), v)
			}
		}},
		{"1.1 sessions take their agent from replies", []wire.Event{created(C, "", "w (@explore subagent)", 1),
			wire.MessageUpdated{Info: wire.Message{ID: "msg_1", SessionID: C, Role: "assistant", Agent: "explore"}}},
			func(t *testing.T, s *State) {
				if got := s.Session(C).Agent; got != "explore" {
					t.Fatalf("agent = %q", got)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.check(t, apply(tc.evs...))
		})
	}
}

// TestApplyTwice: every table story, with each event applied twice, ends in
// the same state, except streamed deltas, which carry no id to tell a
// repeat from new text (the final part update settles them).
func TestApplyTwice(t *testing.T) {
	const P, C = "ses_p", "ses_c"
	evs := []wire.Event{
		created(C, P, "kid", 5), status(C, "busy"), tool(C, "msg_1", "prt_1", "bash", "running", "start", 7),
		created(P, "", "root", 1), status(P, "busy"), userMsg(P, "msg_0", 2), asstMsg(P, "msg_01", 3, 0.1, 3, 0),
		tool(P, "msg_01", "prt_0", "task", "running", "input", `{"description":"kid"}`, "metadata", `{"sessionId":"ses_c"}`),
		step(C, "msg_1", "prt_s", 7, 0.2), tool(C, "msg_1", "prt_1", "bash", "completed", "output", "x", "end", 9),
		wire.PermissionAsked{Request: wire.PermissionRequest{ID: "per_1", SessionID: C}},
		text(C, "msg_1", "prt_t", "done", 9, 10), wire.PermissionReplied{RequestID: "per_1"},
		aborted(C), status(C, "idle"), wire.SessionIdle{SessionID: C},
		tool(P, "msg_01", "prt_0", "task", "error", "error", "Task cancelled", "end", 11),
		wire.MessageRemoved{SessionID: P, MessageID: "msg_9"}, status(P, "idle"),
	}
	once := apply(evs...)
	var twice []wire.Event
	for _, ev := range evs {
		twice = append(twice, ev, ev)
	}
	if a, b := canon(once), canon(apply(twice...)); a != b {
		t.Fatalf("twice differs:\n%s\nvs\n%s", a, b)
	}
}
