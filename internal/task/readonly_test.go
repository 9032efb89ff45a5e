package task

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// doCounter is a server that answers every request with an empty reply
// and counts what reached it.
type doCounter struct {
	Server
	got []Request
}

func (d *doCounter) Do(_ context.Context, r Request) Reply {
	d.got = append(d.got, r)
	return r.Refused(nil)
}

// TestReadOnlyRefusesWhatChanges: a launch, a resume, an abort and each
// answer are refused with the notice and never reach the server; every
// read does.
func TestReadOnlyRefusesWhatChanges(t *testing.T) {
	inner := &doCounter{}
	s := ReadOnly(inner, "read-only: octop changes nothing on this server")
	changing := map[string]bool{"LaunchRequest": true, "ResumeRequest": true, "AbortRequest": true,
		"AnswerPermissionRequest": true, "AnswerQuestionRequest": true, "RejectQuestionRequest": true}
	var reads int
	for _, r := range everyRequest {
		name := reflect.TypeOf(r).Name()
		if r.Changes() != changing[name] {
			t.Errorf("%s.Changes() = %v", name, r.Changes())
		}
		err := replyErr(s.Do(context.Background(), r))
		if !changing[name] {
			reads++
			if err != nil {
				t.Errorf("%s on a read-only server: %v", name, err)
			}
			continue
		}
		if !errors.Is(err, ErrReadOnly) || err.Error() != "read-only: octop changes nothing on this server" {
			t.Errorf("%s on a read-only server: %v, want the read-only notice", name, err)
		}
	}
	if len(inner.got) != reads {
		t.Errorf("the server got %d requests, want the %d reads: %v", len(inner.got), reads, inner.got)
	}
}
