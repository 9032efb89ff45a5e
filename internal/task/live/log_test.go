package live

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/task"

	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/transcript"
	"github.com/octop-dev/octop/internal/wire"
)

// FollowLog on a session that keeps running gives up at the deadline with
// task.ErrGaveUp (exit 5, as --wait --timeout), after handing out the entries
// that Settled; a running call is held back.
func TestFollowLogGivesUpAtTheDeadline(t *testing.T) {
	f, c := newFake(t)
	f.add(wire.Session{ID: "ses_busy", ParentID: "ses_parent", Title: "busy"})
	f.SetStatus("ses_busy", wire.SessionStatus{Type: wire.StatusBusy})
	f.SetMessages("ses_busy", []wire.MessageWithParts{
		{Info: wire.Message{ID: "msg_1", SessionID: "ses_busy", Role: "user"}, Parts: []wire.Part{
			{ID: "prt_1", Type: wire.PartText, Text: "count them"}}},
		{Info: wire.Message{ID: "msg_2", SessionID: "ses_busy", Role: "assistant"}, Parts: []wire.Part{
			{ID: "prt_2", Type: wire.PartTool, Tool: "bash", State: &wire.ToolState{
				Status: wire.ToolRunning, Input: json.RawMessage(`{"command":"sleep 99"}`)}}}},
	})
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(300*time.Millisecond))
	defer cancel()
	var got []transcript.Entry
	_, err := FollowLog(ctx, c, "ses_busy", func(es []transcript.Entry) error {
		got = append(got, es...)
		return nil
	})
	if !errors.Is(err, task.ErrGaveUp) {
		t.Errorf("FollowLog past its deadline: %v, want task.ErrGaveUp", err)
	}
	if len(got) != 1 || got[0].Kind != transcript.KindPrompt {
		t.Errorf("handed out %+v, want only the prompt (the call still runs)", got)
	}
}
