package tree

import (
	"testing"

	"github.com/octop-dev/octop/model"
)

// The running-tool line: the running call, "thinking" or "writing" while
// the model streams, and between calls the last call, held (not live, so
// drawn dimmed) rather than blinking away.
func TestDoing(t *testing.T) {
	ended := model.ToolCall{Tool: "bash", Title: "go test ./...", Status: model.ToolCompleted}
	running := model.ToolCall{Tool: "read", Input: "main.go", Status: model.ToolRunning}
	for _, c := range []struct {
		name string
		s    model.Session
		what string
		live bool
	}{
		{"a running call", model.Session{Tools: []model.ToolCall{ended, running}}, "read: main.go", true},
		{"thinking", model.Session{Tools: []model.ToolCall{ended}, Streaming: model.StreamReasoning}, "thinking", true},
		{"writing", model.Session{Tools: []model.ToolCall{ended}, Streaming: model.StreamText}, "writing", true},
		{"between two calls: the last one, held", model.Session{Tools: []model.ToolCall{ended}}, "bash: go test ./...", false},
		{"nothing yet", model.Session{}, "", false},
	} {
		what, live := doing(&c.s)
		if what != c.what || live != c.live {
			t.Errorf("%s: doing = %q, %v; want %q, %v", c.name, what, live, c.what, c.live)
		}
	}
}
