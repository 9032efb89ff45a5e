package model

import (
	"strings"

	"github.com/octop-dev/octop/client"
)

// ResultState is how a session's work stands, for `octop result` and the
// result view.
type ResultState int

const (
	ResultEmpty    ResultState = iota // no reply yet and not running
	ResultRunning                     // busy or retrying
	ResultComplete                    // the last reply finished cleanly
	ResultError                       // the last reply ended in an error (aborted included)
)

// String is the word octop prints for the state.
func (r ResultState) String() string {
	switch r {
	case ResultRunning:
		return "running"
	case ResultComplete:
		return "complete"
	case ResultError:
		return "error"
	}
	return "empty"
}

// TaskResult is what a session produced: its state, the text of its last
// assistant reply, and the error that reply ended with.
type TaskResult struct {
	State      ResultState
	Text       string // the last assistant reply with text, its text parts joined
	ErrName    string // e.g. MessageAbortedError
	ErrMessage string // e.g. Aborted
}

// Result derives a TaskResult from a session's messages (GET
// /session/{id}/message, oldest first) and its status.
//
// The state comes from the status first (busy or retry is running, even if
// the messages look finished), then from the last assistant message: an
// error on it is ResultError; a reply that neither completed nor failed
// (the server stopped mid-reply) is ResultError "Incomplete" too, because
// nothing will finish it.
func Result(msgs []client.MessageWithParts, status client.SessionStatus) TaskResult {
	var r TaskResult
	last := -1
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Info.Role == "assistant" {
			if last < 0 {
				last = i
			}
			if r.Text == "" {
				r.Text = replyText(msgs[i].Parts)
			}
			if r.Text != "" {
				break
			}
		}
	}
	switch {
	case status.Type == client.StatusBusy || status.Type == client.StatusRetry:
		r.State = ResultRunning
	case last < 0:
		r.State = ResultEmpty
	case msgs[last].Info.Error != nil:
		r.State = ResultError
		r.ErrName = msgs[last].Info.Error.Name
		r.ErrMessage = msgs[last].Info.Error.Data.Message
	case msgs[last].Info.Time.Completed == 0 && msgs[last].Info.Finish == "":
		r.State = ResultError
		r.ErrName = "Incomplete"
		r.ErrMessage = "the last reply never finished"
	default:
		r.State = ResultComplete
	}
	return r
}

func replyText(parts []client.Part) string {
	var b strings.Builder
	for _, p := range parts {
		if p.Type != client.PartText || p.Text == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.Text)
	}
	return b.String()
}

// Result is the live counterpart of the package-level Result, from what the
// state holds: LastText is bounded, so Text may be the tail of a long reply.
func (s *State) Result(id string) TaskResult {
	ss := s.sessions[id]
	if ss == nil {
		return TaskResult{}
	}
	r := TaskResult{Text: ss.LastText}
	switch {
	case ss.Running():
		r.State = ResultRunning
	case ss.Err != nil:
		r.State = ResultError
		r.ErrName, r.ErrMessage = ss.Err.Name, ss.Err.Data.Message
	case ss.latestAssistant() == nil && ss.LastText == "":
		r.State = ResultEmpty
	default:
		r.State = ResultComplete
	}
	return r
}
