package result

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/styles"
)

// Render draws a result for a box inner cells wide; answer renders the
// agent's text (markdown) for a width.
func Render(st *styles.Styles, id string, r task.Result, errMsg string, missing bool, inner int, answer func(string, int) string) string {
	var b strings.Builder
	line := func(label, value string) {
		b.WriteString(st.Label.Render(label) + " " + value + "\n")
	}
	if errMsg != "" {
		status := "unknown: the server did not answer"
		if missing {
			status = "not found"
		}
		line("status:", st.Failed.Render(status))
		line("task_id:", format.OneLine(id))
		b.WriteString("\n" + format.Wrap(errMsg, inner))
		return b.String()
	}
	stateStyle := st.Done
	switch r.State {
	case model.StatusRunning:
		stateStyle = st.Busy
	case model.StatusError:
		stateStyle = st.Failed
	}
	state := r.State
	if r.Retry != nil {
		state += fmt.Sprintf(" (retry %d: %s)", r.Retry.Attempt, format.OneLine(r.Retry.Message))
	}
	line("status:", stateStyle.Render(state))
	line("task_id:", format.OneLine(r.TaskID))
	if r.Agent != "" {
		line("agent:", "@"+format.OneLine(r.Agent))
	}
	switch r.State {
	case model.StatusError:
		b.WriteString("\n" + st.Failed.Render(format.Wrap(r.ErrorLine(), inner)) + "\n")
		if r.Text != "" {
			b.WriteString("\n" + st.Label.Render("last text before it stopped:") + "\n")
			b.WriteString(answer(r.Text, inner) + "\n")
		}
	case model.StatusComplete:
		b.WriteString("\n")
		if strings.TrimSpace(r.Text) == "" {
			b.WriteString(st.Dim.Render("(no text in the last answer)") + "\n")
		} else {
			b.WriteString(answer(r.Text, inner) + "\n")
		}
	case model.StatusRunning:
		b.WriteString("\n" + renderTools(st, r.Tools, inner))
		if strings.TrimSpace(r.Text) != "" {
			b.WriteString("\n" + answer(r.Text, inner) + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// renderTools lists a running task's tool calls, one a line.
func renderTools(st *styles.Styles, tools []task.ToolCall, inner int) string {
	if len(tools) == 0 {
		return st.Dim.Render("no tool calls yet in this run") + "\n"
	}
	var b strings.Builder
	for _, t := range tools {
		mark, style := "·", st.Dim
		switch t.Status {
		case wire.ToolRunning, wire.ToolPending:
			mark, style = "●", st.Busy
		case wire.ToolCompleted:
			mark, style = "✓", st.Done
		case wire.ToolError:
			mark, style = "✗", st.Failed
		}
		row := style.Render(mark) + " " + format.OneLine(t.Tool)
		if t.Title != "" {
			row += "  " + st.Dim.Render(format.OneLine(t.Title))
		}
		if t.Error != "" {
			row += "  " + st.Failed.Render(format.OneLine(t.Error))
		}
		b.WriteString(ansi.Truncate(row, inner, "…") + "\n")
	}
	return b.String()
}
