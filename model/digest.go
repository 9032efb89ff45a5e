package model

import (
	"encoding/json"

	"github.com/octop-dev/octop/internal/wire"
)

// InputDigest is one line saying what a tool call works on, as the tree
// shows it: the bash command, the file path, the pattern (and where), the
// URL, the task's description. Empty when the input has none of these.
func InputDigest(input json.RawMessage) string {
	if len(input) <= 2 {
		return ""
	}
	return inputDigest(input)
}

// TaskChild is the child session a task call started, from whichever the
// server gave (metadata.sessionId, or the id written into the output), or
// "" while it names none (1.1.x until the call ends).
func TaskChild(st *wire.ToolState) string {
	if st == nil {
		return ""
	}
	return taskChild(st)
}

// maxTodos bounds a kept todo list.
const maxTodos = 100

// boundTodos copies a todo list with each item's text to one bounded line.
func boundTodos(in []wire.Todo) []wire.Todo {
	if len(in) == 0 {
		return nil
	}
	out := make([]wire.Todo, 0, min(len(in), maxTodos))
	for _, t := range in[:min(len(in), maxTodos)] {
		out = append(out, wire.Todo{Content: boundLine(t.Content), Status: t.Status, Priority: t.Priority})
	}
	return out
}

// BackgroundChild is the child a task part launched in the background
// (OpenCode 1.18: metadata.background, or a completed output opening
// state="running"), or "" when the part is no such call. A result must
// read that child to tell whether the part's session is done.
func BackgroundChild(p *wire.Part) string {
	if p == nil || p.Type != wire.PartTool || p.Tool != "task" || p.State == nil || !isBackgroundCall(p.State) {
		return ""
	}
	return taskChild(p.State)
}

// IsNotice says whether a part is a background task's end notice: a
// synthetic text the server wrote to the parent (see ParseNotice).
func IsNotice(p *wire.Part) bool {
	if p == nil || p.Type != wire.PartText || !p.Synthetic {
		return false
	}
	_, ok := ParseNotice(p.Text)
	return ok
}
