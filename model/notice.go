package model

import (
	"regexp"
	"strings"
)

// Notice is a background task's end notice. OpenCode 1.18 (with
// OPENCODE_EXPERIMENTAL_BACKGROUND_SUBAGENTS) adds it to the parent as a
// user message whose one text part is synthetic, when the child's run
// ends, and then runs the parent again to answer it:
//
//	<task id="ses_…" state="completed">
//	<summary>Background task completed: worker 0</summary>
//	<task_result>
//	…the child's last text…
//	</task_result>
//	</task>
//
// A failed child gives state="error", "Background task failed: …" and a
// <task_error> body. An aborted child, or one cut off by a restart, gets
// no notice at all.
type Notice struct {
	ChildID string
	// State is the server's word: "completed" or "error".
	State string
	// Summary is the <summary> line, e.g. "Background task completed:
	// worker 0"; empty when the server wrote none.
	Summary string
	// Body is the child's answer, or its error.
	Body string
}

// The opening tag of a task output (1.18) or an end notice: where the id
// and state are. Only at the very start: the child's answer inside may
// quote other tags.
var reTaskOpen = regexp.MustCompile(`^<task id="(ses_[0-9A-Za-z]+)" state="([a-z]+)">`)

// ParseNotice reads an end notice from a synthetic text part's text. ok is
// false for any other text.
func ParseNotice(text string) (n Notice, ok bool) {
	text = strings.TrimSpace(text)
	m := reTaskOpen.FindStringSubmatch(text)
	if m == nil {
		return Notice{}, false
	}
	n = Notice{ChildID: m[1], State: m[2]}
	rest := text[len(m[0]):]
	if s, after, found := between(rest, "<summary>", "</summary>"); found {
		n.Summary, rest = oneLine(s), after
	}
	for _, tag := range []string{"task_result", "task_error"} {
		open := "<" + tag + ">"
		if i := strings.Index(rest, open); i >= 0 {
			body := rest[i+len(open):]
			if j := strings.LastIndex(body, "</"+tag+">"); j >= 0 {
				body = body[:j]
			}
			n.Body = strings.TrimSpace(body)
			break
		}
	}
	return n, true
}

// between is the text between open and close at the start of s (after
// blanks), and what follows close.
func between(s, open, close string) (inner, after string, ok bool) {
	s = strings.TrimLeft(s, " \t\r\n")
	if !strings.HasPrefix(s, open) {
		return "", s, false
	}
	j := strings.Index(s, close)
	if j < 0 {
		return "", s, false
	}
	return s[len(open):j], s[j+len(close):], true
}

// Failed says the child's run failed (state="error").
func (n Notice) Failed() bool { return n.State == "error" }

// Description is the task's description as the summary names it
// ("worker 0"), or the summary itself when it has another form.
func (n Notice) Description() string {
	for _, p := range []string{"Background task completed: ", "Background task failed: "} {
		if d, ok := strings.CutPrefix(n.Summary, p); ok {
			return d
		}
	}
	return n.Summary
}

// Ended is how the notice says the child ended, in a person's words:
// "completed" or "failed".
func (n Notice) Ended() string {
	if n.Failed() {
		return "failed"
	}
	return "completed"
}

// TaskOutputState is the state a 1.18 task output opens with
// (`<task id="ses_…" state="running">` for a background launch,
// "completed" for a task that ran in the foreground), or "" for any other
// form (1.1's `task_id: …`).
func TaskOutputState(output string) string {
	if m := reTaskOpen.FindStringSubmatch(strings.TrimSpace(output)); m != nil {
		return m[2]
	}
	return ""
}
