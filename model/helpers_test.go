package model

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/octop-dev/octop/internal/wire"
)

// Event builders for table tests: short, so a case reads as a story.

func created(id, parent, title string, at int64) wire.Event {
	return wire.SessionCreated{Info: wire.Session{ID: id, ParentID: parent, Title: title,
		Time: wire.SessionTime{Created: at, Updated: at}}}
}

func updated(id, parent, title string, createdAt, at int64) wire.Event {
	return wire.SessionUpdated{Info: wire.Session{ID: id, ParentID: parent, Title: title,
		Time: wire.SessionTime{Created: createdAt, Updated: at}}}
}

func status(id, typ string) wire.Event {
	return wire.SessionStatusChanged{SessionID: id, Status: wire.SessionStatus{Type: typ}}
}

func aborted(id string) wire.Event {
	return wire.SessionError{SessionID: id, Error: &wire.ErrorInfo{Name: "MessageAbortedError",
		Data: wire.ErrorInfoData{Message: "Aborted"}}}
}

func userMsg(sess, id string, at int64) wire.Event {
	return wire.MessageUpdated{Info: wire.Message{ID: id, SessionID: sess, Role: "user",
		Time: wire.MessageTime{Created: at}}}
}

func asstMsg(sess, id string, tokens, cost float64, at, done int64) wire.Event {
	return wire.MessageUpdated{Info: wire.Message{ID: id, SessionID: sess, Role: "assistant",
		Agent: "build", Cost: cost, Tokens: wire.Tokens{Input: tokens},
		Time: wire.MessageTime{Created: at, Completed: done}}}
}

// tool is a tool part; kv are extra state fields: input, output, error,
// title, metadata (raw JSON), start, end.
func tool(sess, msg, part, name, st string, kv ...any) wire.Event {
	ts := &wire.ToolState{Status: st, Input: json.RawMessage(`{}`)}
	for i := 0; i+1 < len(kv); i += 2 {
		v := kv[i+1]
		switch kv[i] {
		case "input":
			ts.Input = json.RawMessage(v.(string))
		case "output":
			ts.Output = v.(string)
		case "error":
			ts.Error = v.(string)
		case "title":
			ts.Title = v.(string)
		case "metadata":
			ts.Metadata = json.RawMessage(v.(string))
		case "start":
			ts.Time.Start = int64(v.(int))
		case "end":
			ts.Time.End = int64(v.(int))
		default:
			panic("unknown tool field " + kv[i].(string))
		}
	}
	return wire.PartUpdated{Part: wire.Part{ID: part, SessionID: sess, MessageID: msg,
		Type: wire.PartTool, Tool: name, CallID: "call_" + part, State: ts}}
}

func text(sess, msg, part, txt string, start, end int64) wire.Event {
	p := wire.Part{ID: part, SessionID: sess, MessageID: msg, Type: wire.PartText, Text: txt}
	if start != 0 || end != 0 {
		p.Time = &wire.PartTime{Start: start, End: end}
	}
	return wire.PartUpdated{Part: p}
}

func delta(sess, msg, part, d string) wire.Event {
	return wire.PartDelta{SessionID: sess, MessageID: msg, PartID: part, Field: "text", Delta: d}
}

func step(sess, msg, part string, tokens, cost float64) wire.Event {
	return wire.PartUpdated{Part: wire.Part{ID: part, SessionID: sess, MessageID: msg,
		Type: wire.PartStepFinish, Tokens: &wire.Tokens{Input: tokens}, Cost: cost}}
}

func apply(evs ...wire.Event) *State {
	s := New()
	for _, ev := range evs {
		s.Apply(ev)
	}
	return s
}

// canon renders everything a person could see of the state, in a fixed
// order, so two states can be compared for equality.
func canon(s *State) string {
	ids := make([]string, 0, len(s.sessions))
	for id := range s.sessions {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var b strings.Builder
	fmt.Fprintf(&b, "roots=%v\n", s.Roots())
	for _, id := range ids {
		ss := s.sessions[id]
		fmt.Fprintf(&b, "%s known=%v title=%q agent=%q parent=%q children=%v run=%q/%v display=%d state=%+v err=%v "+
			"retry=%+v tok=%v cost=%v counts=%+v text=%q task=%q created=%d updated=%d "+
			"start=%d end=%d active=%d runs=%v perms=%d questions=%d\n",
			id, ss.Known, ss.Title, ss.Agent, ss.ParentID, ss.ChildIDs(), runOf(ss), ss.StatusKnown, s.display(id), s.StateOf(id), ss.Err,
			ss.Retry(), ss.Tokens, ss.Cost, s.Counts(id), ss.LastText(),
			ss.TaskPartID, ss.Created, ss.Updated, ss.RunStart, ss.RunEnd, ss.LastActive, s.Runs(id),
			len(s.Permissions(id)), len(s.Questions(id)))
		for i, t := range ss.Tools {
			fmt.Fprintf(&b, "  %+v shown=%d\n", t, ss.CallStatus(i))
		}
	}
	return b.String()
}

// display folds a session's state into the five a test tells apart:
// busy, retrying, waiting on the person, a bad end, anything else.
type display int

const (
	DisplayIdle display = iota
	DisplayBusy
	DisplayRetry
	DisplayWaiting
	DisplayError
)

func (s *State) display(id string) display {
	switch k := s.StateOf(id).Kind; {
	case k == KindWaiting:
		return DisplayWaiting
	case k == KindRunning:
		return DisplayBusy
	case k == KindRetrying:
		return DisplayRetry
	case k.Bad():
		return DisplayError
	}
	return DisplayIdle
}
