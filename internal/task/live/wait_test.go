package live

import (
	"context"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// TestWaitAfterAPromptIgnoresTheRunBefore: after a prompt to a session
// whose last run was aborted, an idle status says nothing of the new run
// until its user message and a reply after it are there: WaitAfter keeps
// waiting through the prompt not yet stored and through the prompt stored
// but not started, and returns the new run's answer.
func TestWaitAfterAPromptIgnoresTheRunBefore(t *testing.T) {
	f, c := newFake(t)
	aborted := &wire.ErrorInfo{Name: "MessageAbortedError", Data: wire.ErrorInfoData{Message: "Aborted"}}
	old := []wire.MessageWithParts{
		{Info: wire.Message{ID: "msg_1", SessionID: "ses_parent", Role: "user", Time: wire.MessageTime{Created: 1}}},
		{Info: wire.Message{ID: "msg_2", SessionID: "ses_parent", Role: "assistant", Error: aborted, Time: wire.MessageTime{Created: 2, Completed: 3}}},
	}
	f.SetMessages("ses_parent", old)
	prompt := wire.MessageWithParts{Info: wire.Message{ID: "msg_3", SessionID: "ses_parent", Role: "user", Time: wire.MessageTime{Created: 4}}}
	answer := wire.MessageWithParts{Info: wire.Message{ID: "msg_4", SessionID: "ses_parent", Role: "assistant", Finish: "stop",
		Time: wire.MessageTime{Created: 5, Completed: 6}},
		Parts: []wire.Part{{ID: "prt_1", SessionID: "ses_parent", MessageID: "msg_4", Type: wire.PartText, Text: "the new answer"}}}

	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(30*time.Second))
	defer cancel()
	done := make(chan task.Result, 1)
	go func() {
		r, err := WaitAfter(ctx, c, "ses_parent", WaitOptions{Prompted: true, After: "msg_2", Poll: 5 * time.Millisecond})
		if err != nil {
			t.Errorf("WaitAfter: %v", err)
		}
		done <- r
	}()
	reads := func() int { return len(f.RequestsTo("GET /session/ses_parent/message")) }
	for _, step := range [][]wire.MessageWithParts{
		old,                 // the prompt not stored yet
		append(old, prompt), // stored, its run not started: the old abort is still the last reply
	} {
		f.SetMessages("ses_parent", step)
		n := reads()
		testwait.Eventually(t, func() bool { return reads() >= n+3 }, 10*time.Second, "three more polls")
		select {
		case r := <-done:
			t.Fatalf("WaitAfter returned %s (%s) before the new run answered", r.State, r.Reason)
		default:
		}
	}
	f.SetMessages("ses_parent", append(old, prompt, answer))
	select {
	case r := <-done:
		if r.State != model.StatusComplete || r.Text != "the new answer" {
			t.Errorf("WaitAfter = %s %q, want complete with the new answer", r.State, r.Text)
		}
	case <-ctx.Done():
		t.Fatal("WaitAfter never returned")
	}
}
