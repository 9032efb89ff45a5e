package task

import (
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// msg is a finished message: an assistant reply that ended with "stop".
func msg(role, agent string, parts ...wire.Part) wire.MessageWithParts {
	m := wire.MessageWithParts{Info: wire.Message{Role: role, Agent: agent}, Parts: parts}
	if role == "assistant" {
		m.Info.Finish, m.Info.Time.Completed = "stop", 2
	}
	return m
}

func unfinished(m wire.MessageWithParts) wire.MessageWithParts {
	m.Info.Finish, m.Info.Time.Completed = "", 0
	return m
}

func text(s string) wire.Part { return wire.Part{Type: wire.PartText, Text: s} }

func tool(name, status, title string) wire.Part {
	return wire.Part{Type: wire.PartTool, Tool: name, State: &wire.ToolState{Status: status, Title: title}}
}

func TestDeriveResult(t *testing.T) {
	s := wire.Session{ID: "ses_1", Title: "t (@general subagent)"}
	idle := wire.SessionStatus{}
	busy := wire.SessionStatus{Type: wire.StatusBusy}
	aborted := msg("assistant", "general", text("half"))
	aborted.Info.Error = &wire.ErrorInfo{Name: "MessageAbortedError", Data: wire.ErrorInfoData{Message: "The operation was aborted."}}

	tests := []struct {
		name      string
		st        wire.SessionStatus
		msgs      []wire.MessageWithParts
		state     string
		text      string
		errName   string
		tools     int
		agent     string
		wantInFmt []string
	}{
		{"complete takes the last text of the last run", idle,
			[]wire.MessageWithParts{
				msg("user", "general", text("first")),
				msg("assistant", "general", text("old answer")),
				msg("user", "general", text("again")),
				msg("assistant", "general", tool("bash", "completed", "ls"), text("step")),
				msg("assistant", "general", text("final answer"), text("  ")),
			},
			model.StatusComplete, "final answer", "", 1, "general",
			[]string{"status: complete", "task_id: ses_1", "<task_result>\nfinal answer\n</task_result>"}},
		{"busy is running with its tool calls", busy,
			[]wire.MessageWithParts{msg("user", "explore", text("go")), msg("assistant", "explore", tool("bash", "running", "sleep 5"))},
			model.StatusRunning, "", "", 1, "explore",
			[]string{"status: running", "tool: running   bash  sleep 5"}},
		{"a prompt with no reply yet is running even when idle", idle,
			[]wire.MessageWithParts{msg("user", "general", text("go"))},
			model.StatusRunning, "", "", 0, "general", []string{"status: running"}},
		{"an aborted run is an error with name and message", idle,
			[]wire.MessageWithParts{msg("user", "general", text("go")), aborted},
			model.StatusError, "half", "MessageAbortedError", 0, "general",
			[]string{"status: error", "reason: aborted", "error: MessageAbortedError: The operation was aborted."}},
		{"a new prompt clears the old error", busy,
			[]wire.MessageWithParts{msg("user", "general", text("go")), aborted, msg("user", "general", text("again"))},
			model.StatusRunning, "", "", 0, "general", nil},
		{"a new prompt not started yet is not the old abort", idle,
			[]wire.MessageWithParts{msg("user", "general", text("go")), aborted, msg("user", "general", text("again"))},
			model.StatusRunning, "", "", 0, "general", []string{"status: running"}},
		{"an idle reply that never finished is an error", idle,
			[]wire.MessageWithParts{msg("user", "general", text("go")), unfinished(msg("assistant", "general", text("par")))},
			model.StatusError, "par", "Interrupted", 0, "general", []string{"reason: interrupted", "error: Interrupted: the last reply never finished"}},
		{"no messages is complete with no text", idle, nil, model.StatusComplete, "", "", 0, "", []string{"<task_result>\n\n</task_result>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := DeriveResult(s, tt.st, tt.msgs)
			if r.State != tt.state || r.Text != tt.text || len(r.Tools) != tt.tools || r.Agent != tt.agent {
				t.Errorf("got state=%q text=%q tools=%d agent=%q, want %q %q %d %q", r.State, r.Text, len(r.Tools), r.Agent, tt.state, tt.text, tt.tools, tt.agent)
			}
			if name := ""; r.Error != nil {
				name = r.Error.Name
				if name != tt.errName {
					t.Errorf("error %q, want %q", name, tt.errName)
				}
			} else if tt.errName != "" {
				t.Errorf("no error, want %q", tt.errName)
			}
			if want := tt.state != model.StatusRunning && tt.errName != "Interrupted"; r.Settled != want {
				t.Errorf("Settled = %v, want %v", r.Settled, want)
			}
			out := r.Format()
			for _, w := range tt.wantInFmt {
				if !strings.Contains(out, w) {
					t.Errorf("Format() = %q, missing %q", out, w)
				}
			}
		})
	}
}

func TestDeriveResultBetweenSteps(t *testing.T) {
	// Idle for an instant after a step that called tools: complete by the
	// messages, but not Settled, so Wait keeps polling.
	step := msg("assistant", "general", tool("bash", "completed", "ls"))
	step.Info.Finish = "tool-calls"
	r := DeriveResult(wire.Session{ID: "ses_1"}, wire.SessionStatus{}, []wire.MessageWithParts{msg("user", "general", text("go")), step})
	if r.State != model.StatusComplete || r.Settled {
		t.Errorf("state %q Settled %v, want complete and unsettled", r.State, r.Settled)
	}
}
