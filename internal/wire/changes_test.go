package wire

import (
	"encoding/json"
	"testing"
)

func TestDecodeTodoUpdated(t *testing.T) {
	env, err := DecodeEvent([]byte(`{"type":"todo.updated","properties":{"sessionID":"ses_a","todos":[{"content":"write it","status":"completed","priority":"high"},{"content":"test it","status":"in_progress","priority":"low","id":"1"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	ev, ok := env.Event.(TodoUpdated)
	if !ok || ev.SessionID != "ses_a" || len(ev.Todos) != 2 || ev.Todos[0].Status != TodoCompleted || ev.Todos[1].ID != "1" {
		t.Errorf("todo.updated decoded to %#v", env.Event)
	}
	if _, err := DecodeEvent([]byte(`{"type":"todo.updated","properties":{"todos":[]}}`)); err == nil {
		t.Error("todo.updated with no sessionID decoded without an error")
	}
}

// A user message's summary is an object with diffs, an assistant's a
// boolean: both must decode, or a whole message list fails.
func TestMessageSummaryShapes(t *testing.T) {
	var msgs []Message
	err := json.Unmarshal([]byte(`[
		{"id":"msg_1","role":"user","summary":{"diffs":[{"file":"a.go","patch":"@@","additions":2,"deletions":1}]}},
		{"id":"msg_2","role":"assistant","summary":true},
		{"id":"msg_3","role":"user"}]`), &msgs)
	if err != nil {
		t.Fatal(err)
	}
	if d := msgs[0].Summary; d == nil || len(d.Diffs) != 1 || d.Diffs[0].File != "a.go" || d.Diffs[0].Additions != 2 {
		t.Errorf("user summary: %+v", d)
	}
	if d := msgs[1].Summary; d == nil || len(d.Diffs) != 0 {
		t.Errorf("assistant summary: %+v", d)
	}
	if msgs[2].Summary != nil {
		t.Errorf("no summary decoded to %+v", msgs[2].Summary)
	}
}
