package record

import (
	"context"
	"errors"
	"testing"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// snapReader answers one recorded snapshot.
type snapReader struct{ snap model.Snapshot }

func (r snapReader) Snapshot(context.Context) (model.Snapshot, error) { return r.snap, nil }
func (r snapReader) Health(context.Context) (wire.Health, error) {
	return wire.Health{Healthy: true, Version: "1.18.33"}, nil
}

func text(sess, msg, part, role, body string) wire.MessageWithParts {
	return wire.MessageWithParts{Info: wire.Message{ID: msg, SessionID: sess, Role: role, Time: wire.MessageTime{Created: 1, Completed: 2}},
		Parts: []wire.Part{{ID: part, SessionID: sess, MessageID: msg, Type: "text", Text: body}}}
}

// TestReadOnlyAnswersFromTheRecording: a result and the messages come from
// what the recording showed (a snapshot's messages, then the stream's
// events over them); every action says "<label>: read-only"; a reset
// forgets it all.
func TestReadOnlyAnswersFromTheRecording(t *testing.T) {
	ctx := context.Background()
	rec := NewRecorded()
	o := ReadOnly(snapReader{model.Snapshot{
		Sessions: []wire.Session{{ID: "ses_a", Title: "a task", Agent: "general"}},
		Messages: map[string][]wire.MessageWithParts{"ses_a": {text("ses_a", "msg_1", "prt_1", "user", "do it")}},
	}}, rec, "replay")
	if _, err := o.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
	reply := text("ses_a", "msg_2", "prt_2", "assistant", "done")
	reply.Info.Finish = "stop"
	rec.Observe(wire.Envelope{Event: wire.MessageUpdated{Info: reply.Info}})
	rec.Observe(wire.Envelope{Event: wire.PartUpdated{Part: wire.Part{ID: "prt_2", SessionID: "ses_a", MessageID: "msg_2", Type: "text", Text: "do"}}})
	rec.Observe(wire.Envelope{Event: wire.PartDelta{SessionID: "ses_a", MessageID: "msg_2", PartID: "prt_2", Field: "text", Delta: "ne"}})

	m := o.Do(ctx, task.MessagesRequest{ID: "ses_a"}).(task.MessagesReply)
	if m.Err != nil || m.Running || len(m.Msgs) != 2 || m.Msgs[1].Parts[0].Text != "done" {
		t.Fatalf("messages = %+v; want the prompt and the streamed reply", m)
	}
	res := o.Do(ctx, task.ResultRequest{ID: "ses_a"}).(task.ResultReply)
	if res.Err != nil || res.Result.State != model.StatusComplete || res.Result.Text != "done" || res.Result.Agent != "general" {
		t.Fatalf("result = %+v; want complete with the reply's text", res)
	}
	for _, r := range []task.Request{task.LaunchRequest{}, task.AnswerPermissionRequest{RequestID: "per_1", Reply: "once"},
		task.AgentsRequest{}, task.FindRequest{ID: "ses_a"}} {
		if err := replyErr(o.Do(ctx, r)); !errors.Is(err, task.ErrReadOnly) || err.Error() != "replay: read-only" {
			t.Errorf("%T: %v, want replay: read-only", r, err)
		}
	}
	rec.Reset()
	if res := o.Do(ctx, task.ResultRequest{ID: "ses_a"}).(task.ResultReply); !errors.Is(res.Err, task.ErrNoSession) {
		t.Errorf("after Reset, result: %v; want no such session", res.Err)
	}
}

// replyErr is the error a reply carries.
func replyErr(r task.Reply) error {
	switch r := r.(type) {
	case task.LaunchReply:
		return r.Err
	case task.AnswerReply:
		return r.Err
	case task.AgentsReply:
		return r.Err
	case task.FindReply:
		return r.Err
	}
	return nil
}

// TestReplayHistoryOfAnUnrecordedSession: a session the recording lists
// but holds no message of has no history to give (an error, so the row
// stays not loaded), never an empty one.
func TestReplayHistoryOfAnUnrecordedSession(t *testing.T) {
	ctx := context.Background()
	rec := NewRecorded()
	o := ReadOnly(snapReader{model.Snapshot{Sessions: []wire.Session{{ID: "ses_old", Title: "finished before"}}}}, rec, "replay")
	if _, err := o.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
	if msgs, err := o.History(ctx, "ses_old", ""); err == nil {
		t.Fatalf("History of an unrecorded session = %v, nil; want an error", msgs)
	}
	rec.Observe(wire.Envelope{Event: wire.MessageUpdated{Info: wire.Message{ID: "msg_1", SessionID: "ses_old", Role: "user"}}})
	if msgs, err := o.History(ctx, "ses_old", ""); err != nil || len(msgs) != 1 {
		t.Fatalf("History once a message was recorded = %v, %v", msgs, err)
	}
}
