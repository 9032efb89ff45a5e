package result

import (
	"errors"
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/octop-dev/octop/internal/colourtest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/intent"
	"github.com/octop-dev/octop/ui/styles"
)

const screenW, screenH = 100, 30

// TestResultRoomGolden pins the result, in colour and in NO_COLOR:
// loading, running, complete with a markdown answer, failed, retrying and
// not found; the NO_COLOR one has no colour escape.
func TestResultRoomGolden(t *testing.T) {
	tools := []intent.ToolCall{
		{Tool: "glob", Status: "completed", Title: "**/*.go"},
		{Tool: "bash", Status: "error", Title: "go test ./...", Error: "exit status 1"},
		{Tool: "grep", Status: "running", Title: "TODO"},
	}
	scenes := []struct {
		name  string
		reply *intent.ResultLoaded
	}{
		{"loading", nil},
		{"running", &intent.ResultLoaded{Result: intent.Result{TaskID: "ses_c4", Agent: "explore", State: intent.StateRunning, Tools: tools}}},
		{"complete", &intent.ResultLoaded{Result: intent.Result{TaskID: "ses_c4", Agent: "explore", State: intent.StateComplete,
			Tools: tools[:1], Text: "Found **14** TODO comments:\n\n- `parser.go`: 9\n- lexer.go: 5\n\n```go\nx := 1\n```"}}},
		{"failed", &intent.ResultLoaded{Result: intent.Result{TaskID: "ses_c4", Agent: "explore", State: intent.StateError,
			Tools: tools[:2], ErrorLine: "MessageAbortedError: Aborted"}}},
		{"retrying", &intent.ResultLoaded{Result: intent.Result{TaskID: "ses_c4", Agent: "explore", State: intent.StateRunning,
			Retry: &wire.SessionStatus{Type: wire.StatusRetry, Attempt: 2, Message: "rate limited"}}}},
		{"not-found", &intent.ResultLoaded{Err: fmt.Errorf("GET /session/ses_c4: %w", intent.ErrNoSession)}},
		{"error", &intent.ResultLoaded{Err: errors.New("GET /session/ses_c4/message: connection refused")}},
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

func intentDialog(v Model) intent.Dialog { return v }
