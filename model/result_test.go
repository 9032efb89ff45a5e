package model

import (
	"testing"

	"github.com/octop-dev/octop/client"
)

func TestResult(t *testing.T) {
	user := client.MessageWithParts{Info: client.Message{ID: "msg_1", Role: "user"},
		Parts: []client.Part{{Type: "text", Text: "do it"}}}
	withText := client.MessageWithParts{Info: client.Message{ID: "msg_2", Role: "assistant", Finish: "stop",
		Time: client.MessageTime{Created: 1, Completed: 2}},
		Parts: []client.Part{{Type: "step-start"}, {Type: "text", Text: "part one"}, {Type: "text", Text: "part two"}}}
	toolsOnly := client.MessageWithParts{Info: client.Message{ID: "msg_3", Role: "assistant", Finish: "tool-calls",
		Time: client.MessageTime{Created: 3, Completed: 4}}, Parts: []client.Part{{Type: "tool", Tool: "bash"}}}
	abortedMsg := client.MessageWithParts{Info: client.Message{ID: "msg_4", Role: "assistant",
		Error: &client.ErrorInfo{Name: "MessageAbortedError", Data: client.ErrorInfoData{Message: "Aborted"}}}}
	unfinished := client.MessageWithParts{Info: client.Message{ID: "msg_5", Role: "assistant", Time: client.MessageTime{Created: 5}}}
	idle, busy := client.SessionStatus{Type: "idle"}, client.SessionStatus{Type: "busy"}

	cases := []struct {
		name   string
		msgs   []client.MessageWithParts
		status client.SessionStatus
		want   TaskResult
	}{
		{"nothing yet", nil, idle, TaskResult{State: ResultEmpty}},
		{"only the prompt", []client.MessageWithParts{user}, idle, TaskResult{State: ResultEmpty}},
		{"prompt sent, running", []client.MessageWithParts{user}, busy, TaskResult{State: ResultRunning}},
		{"complete", []client.MessageWithParts{user, withText}, idle, TaskResult{State: ResultComplete, Text: "part one\npart two"}},
		{"text from an earlier reply", []client.MessageWithParts{user, withText, toolsOnly}, idle,
			TaskResult{State: ResultComplete, Text: "part one\npart two"}},
		{"busy wins over finished-looking messages", []client.MessageWithParts{user, withText}, busy,
			TaskResult{State: ResultRunning, Text: "part one\npart two"}},
		{"aborted", []client.MessageWithParts{user, withText, abortedMsg}, idle,
			TaskResult{State: ResultError, Text: "part one\npart two", ErrName: "MessageAbortedError", ErrMessage: "Aborted"}},
		{"never finished", []client.MessageWithParts{user, unfinished}, idle,
			TaskResult{State: ResultError, ErrName: "Incomplete", ErrMessage: "the last reply never finished"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Result(tc.msgs, tc.status); got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	for st, want := range map[ResultState]string{ResultEmpty: "empty", ResultRunning: "running", ResultComplete: "complete", ResultError: "error"} {
		if st.String() != want {
			t.Errorf("%d.String() = %q", st, st.String())
		}
	}
}
