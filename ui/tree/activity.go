package tree

import (
	"fmt"

	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
)

// This file says what a row tells of its session beyond its title: what
// it does now, what it waits for, how many tools it ran, how long it has
// been quiet.

// doing says what a running session does now: its running call's title
// (else input digest, else tool), "thinking" or "writing" while the model
// streams, else the last call it made. live is false for that last call,
// which is only held so the line does not blink away between two calls.
func doing(s *model.Session) (what string, live bool) {
	for i := len(s.Tools) - 1; i >= 0; i-- {
		// A background task runs on its own: it is not what the session
		// itself is doing.
		if s.CallStatus(i) == model.ToolRunning && !s.Tools[i].Background {
			return callLine(s.Tools[i]), true
		}
	}
	switch s.Streaming {
	case model.StreamReasoning:
		return "thinking", true
	case model.StreamText:
		return "writing", true
	}
	if n := len(s.Tools); n > 0 {
		return callLine(s.Tools[n-1]), false
	}
	return "", false
}

func callLine(t model.ToolCall) string {
	what := t.Title
	if what == "" {
		what = t.Input
	}
	if what == "" {
		return format.OneLine(t.Tool)
	}
	return format.OneLine(t.Tool) + ": " + format.OneLine(what)
}

// waitingFor says what a waiting session asks of the person: the
// permission it wants, or that it has a question.
func waitingFor(st *model.State, id string) string {
	if ps := st.Permissions(id); len(ps) > 0 {
		return "permission " + format.OneLine(ps[0].Permission)
	}
	if len(st.Questions(id)) > 0 {
		return "a question"
	}
	return "an answer"
}

func toolCount(c model.Counts) string {
	n := c.Tools()
	switch n {
	case 0:
		return ""
	case 1:
		return "1 tool"
	}
	return fmt.Sprintf("%d tools", n)
}

// quietAfter is how long a busy session may go without any activity
// before its row says so.
const quietAfter = 10_000

// quiet is "quiet 42s " for a busy session nothing has happened in for
// more than quietAfter ms (no part, message or status): a stuck call or a
// slow model shows before the elapsed time says anything. A session whose
// children run is waiting on them, not quiet.
func quiet(s *model.Session, nowMS int64) string {
	if s.LastActive == 0 || nowMS-s.LastActive <= quietAfter {
		return ""
	}
	return "quiet " + format.Elapsed(nowMS-s.LastActive) + " "
}
