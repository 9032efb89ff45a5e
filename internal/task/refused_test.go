package task

import (
	"errors"
	"reflect"
	"testing"
)

// everyRequest is one of each request.
var everyRequest = []Request{
	AgentsRequest{}, LaunchRequest{Agent: "general", Prompt: "p"}, ResumeRequest{ID: "ses_a", Prompt: "p"},
	WaitRequest{ID: "ses_a"}, FindRequest{ID: "ses_a"}, AbortRequest{IDs: []string{"ses_a"}},
	ResultRequest{ID: "ses_a"}, MessagesRequest{ID: "ses_a"}, HistoriesRequest{IDs: []string{"ses_a"}},
	AnswerPermissionRequest{RequestID: "per_1", Reply: ReplyOnce}, AnswerQuestionRequest{RequestID: "que_1"},
	RejectQuestionRequest{RequestID: "que_1"},
}

// replyErr is the Err every reply carries.
func replyErr(r Reply) error {
	err, _ := reflect.ValueOf(r).FieldByName("Err").Interface().(error)
	return err
}

// TestRefusedKeepsWhatTheRoomNeeds: each request's refused reply carries
// the error, and what its room places the reply by.
func TestRefusedKeepsWhatTheRoomNeeds(t *testing.T) {
	why := errors.New("why")
	for _, r := range everyRequest {
		if err := replyErr(r.Refused(why)); err != why {
			t.Errorf("%T.Refused carries %v", r, err)
		}
	}
	l := LaunchRequest{Parent: "ses_p", Agent: "general", Prompt: "p"}
	if got := l.Refused(why).(LaunchReply); got.Req != l {
		t.Errorf("a refused launch lost its request: %+v", got)
	}
	if got := (ResumeRequest{ID: "ses_a"}).Refused(why).(ResumeReply); got.ID != "ses_a" {
		t.Errorf("a refused resume lost its session: %+v", got)
	}
	if got := (MessagesRequest{ID: "ses_a", Limit: 5}).Refused(why).(MessagesReply); got.ID != "ses_a" || got.Partial {
		t.Errorf("refused messages: %+v", got)
	}
	a := AnswerQuestionRequest{RequestID: "que_1", Done: "answered", Failed: "could not answer"}
	if got := a.Refused(why).(AnswerReply); got.RequestID != "que_1" || got.Done != a.Done || got.Failed != a.Failed {
		t.Errorf("a refused answer lost its notices: %+v", got)
	}
}
