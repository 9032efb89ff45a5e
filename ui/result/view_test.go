package result

import (
	"errors"
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/testkit/colourtest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

const screenW, screenH = 100, 30

// TestResultRoomGolden pins the result, in colour and in NO_COLOR:
// loading, running, complete with a markdown answer, failed, retrying and
// not found; the NO_COLOR one has no colour escape.
func TestResultRoomGolden(t *testing.T) {
	tools := []task.ToolCall{
		{Tool: "glob", Status: "completed", Title: "**/*.go"},
		{Tool: "bash", Status: "error", Title: "go test ./...", Error: "exit status 1"},
		{Tool: "grep", Status: "running", Title: "TODO"},
	}
	scenes := []struct {
		name  string
		reply *task.ResultReply
	}{
		{"loading", nil},
		{"running", &task.ResultReply{Result: task.Result{TaskID: "ses_c4", Agent: "explore", State: model.StatusRunning, Tools: tools}}},
		{"complete", &task.ResultReply{Result: task.Result{TaskID: "ses_c4", Agent: "explore", State: model.StatusComplete,
			Tools: tools[:1], Text: "Found **14** TODO comments:\n\n- `parser.go`: 9\n- lexer.go: 5\n\n```go\nx := 1\n```"}}},
		{"failed", &task.ResultReply{Result: task.Result{TaskID: "ses_c4", Agent: "explore", State: model.StatusError,
			Tools: tools[:2], Error: &wire.ErrorInfo{Name: "MessageAbortedError", Data: wire.ErrorInfoData{Message: "Aborted"}}}}},
		{"retrying", &task.ResultReply{Result: task.Result{TaskID: "ses_c4", Agent: "explore", State: model.StatusRunning,
			Retry: &wire.SessionStatus{Type: wire.StatusRetry, Attempt: 2, Message: "rate limited"}}}},
		{"not-found", &task.ResultReply{Err: fmt.Errorf("GET /session/ses_c4: %w", task.ErrNoSession)}},
		{"error", &task.ResultReply{Err: errors.New("GET /session/ses_c4/message: connection refused")}},
	}
	for _, noColor := range []bool{false, true} {
		st := styles.New(true, noColor)
		for _, sc := range scenes {
			t.Run(map[bool]string{false: "color", true: "nocolor"}[noColor]+"/"+sc.name, func(t *testing.T) {
				v, _ := New(st, "ses_c4", "count TODO comments (@explore subagent)", screenW, screenH)
				d := intentDialog(v)
				if sc.reply != nil {
					d, _ = d.Update(*sc.reply)
				}
				out := d.View(screenW, screenH)
				if e := colourtest.Escape(out); noColor && e != "" {
					t.Fatalf("a colour escape %s under NO_COLOR:\n%s", e, out)
				}
				if e := colourtest.Escape(out); !noColor && e == "" {
					t.Fatalf("no colour at all in colour:\n%s", out)
				}
				golden.RequireEqual(t, []byte(out))
			})
		}
	}
}

func intentDialog(v Model) room.Dialog { return v }
