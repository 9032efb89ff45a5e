package actions

import (
	"fmt"
	"strings"

	"github.com/octop-dev/octop/wire"
)

// Task states, in async-task-result terms.
const (
	StateRunning  = "running"
	StateComplete = "complete"
	StateError    = "error"
)

// TaskResult is a session's outcome as an async task's caller sees it.
type TaskResult struct {
	TaskID string
	Title  string
	Agent  string
	// State is StateRunning, StateComplete or StateError.
	State string
	// Run is the server's run state while running: busy or retry.
	Run string
	// Retry says why and when a retrying session tries again.
	Retry *wire.SessionStatus
	// Text is the last assistant text: the answer once complete, the text so
	// far while running.
	Text string
	// Error is what the last run ended with (e.g. MessageAbortedError).
	Error *wire.ErrorInfo
	// Tools are the tool calls of the current (or last) run, in order.
	Tools []ToolCall
	// Messages is how many messages the session has.
	Messages int

	// settled is false when the messages could still be mid-run: the last
	// reply stopped to call tools, or never finished. Wait trusts such a
	// result only after it holds for a few polls.
	settled bool
}

// ToolCall is one tool call of a run, as a result shows it.
type ToolCall struct {
	Tool   string
	Status string // pending, running, completed, error
	Title  string
	Error  string
}

// DeriveResult turns what the server says about one session (its status,
// absent when idle, and its messages oldest first) into a TaskResult.
//
// A session whose last message is a user prompt with no reply yet counts as
// running even before the server marks it busy: prompt_async answers before
// the run starts, and a caller that polls right after launching must not
// read that gap as "complete, no answer".
func DeriveResult(s wire.Session, st wire.SessionStatus, msgs []wire.MessageWithParts) TaskResult {
	r := TaskResult{TaskID: s.ID, Title: s.Title, Agent: s.Agent, Messages: len(msgs)}
	// The current run is everything after the last user message.
	lastUser := -1
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Info.Role == "user" {
			lastUser = i
			break
		}
	}
	var last *wire.MessageWithParts // the last assistant message of the run
	for i := lastUser + 1; i < len(msgs); i++ {
		m := &msgs[i]
		if m.Info.Role != "assistant" {
			continue
		}
		last = m
		if m.Info.Agent != "" {
			r.Agent = m.Info.Agent
		}
		for _, p := range m.Parts {
			switch p.Type {
			case wire.PartText:
				if t := strings.TrimSpace(p.Text); t != "" {
					r.Text = p.Text
				}
			case wire.PartTool:
				tc := ToolCall{Tool: p.Tool}
				if p.State != nil {
					tc.Status, tc.Title, tc.Error = p.State.Status, p.State.Title, p.State.Error
				}
				r.Tools = append(r.Tools, tc)
			}
		}
	}
	if r.Agent == "" && lastUser >= 0 {
		r.Agent = msgs[lastUser].Info.Agent
	}
	switch {
	case running(st):
		r.State, r.Run = StateRunning, st.Type
		if st.Type == wire.StatusRetry {
			retry := st
			r.Retry = &retry
		}
	case lastUser >= 0 && last == nil:
		r.State, r.Run = StateRunning, wire.StatusBusy
	case last != nil && last.Info.Error != nil:
		r.State, r.Error, r.settled = StateError, last.Info.Error, true
	case last != nil && last.Info.Time.Completed == 0 && last.Info.Finish == "":
		// Idle with a reply that neither finished nor failed: the server
		// stopped mid-reply (or the status was read a moment late), and
		// nothing will finish it.
		r.State = StateError
		r.Error = &wire.ErrorInfo{Name: "Incomplete", Data: wire.ErrorInfoData{Message: "the last reply never finished"}}
	default:
		r.State = StateComplete
		r.settled = last == nil || last.Info.Finish != "tool-calls"
	}
	return r
}

// Format renders a result the way `octop result` prints it: a status line,
// the task_id, then the answer inside <task_result> tags, the error's name
// and message, or the run's tool calls so far.
func (r TaskResult) Format() string {
	var b strings.Builder
	fmt.Fprintf(&b, "status: %s\n", r.State)
	fmt.Fprintf(&b, "task_id: %s\n", r.TaskID)
	switch r.State {
	case StateComplete:
		fmt.Fprintf(&b, "\n<task_result>\n%s\n</task_result>\n", strings.TrimRight(r.Text, "\n"))
	case StateError:
		fmt.Fprintf(&b, "error: %s\n", r.ErrorLine())
	case StateRunning:
		if r.Retry != nil {
			fmt.Fprintf(&b, "retry: attempt %d: %s\n", r.Retry.Attempt, r.Retry.Message)
		}
		for _, t := range r.Tools {
			line := fmt.Sprintf("tool: %-9s %s", t.Status, t.Tool)
			if t.Title != "" {
				line += "  " + oneLine(t.Title)
			}
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// ErrorLine is the error as one line: "Name: message".
func (r TaskResult) ErrorLine() string {
	if r.Error == nil {
		return ""
	}
	if r.Error.Data.Message == "" {
		return r.Error.Name
	}
	return r.Error.Name + ": " + oneLine(r.Error.Data.Message)
}

// oneLine folds whitespace runs, newlines included, into single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
