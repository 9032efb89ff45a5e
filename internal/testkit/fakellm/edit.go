package fakellm

import (
	"fmt"
	"strings"
)

// Edit is the keyword of the scenario that changes a file, step by step,
// the way a real agent does: see the package documentation.
const Edit = "EDIT"

// DefaultEditPath is the file EDIT changes when no path= is given.
const DefaultEditPath = "octop-edit.txt"

// EditLine is line n (from 1) of what EDIT writes: "<tag> line <n>".
func EditLine(tag string, n int) string {
	return fmt.Sprintf("%s line %d", tag, n)
}

// EditContent is the file EDIT has written after n steps (via=write or
// via=edit, or via=bash into a file nobody else appends to): lines 1…n,
// each ended by a newline.
func EditContent(tag string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(EditLine(tag, i))
		b.WriteString("\n")
	}
	return b.String()
}

// editFinal is EDIT's last answer.
func editFinal(s Script) string {
	return fmt.Sprintf("edit finished: %s after %d steps", s.String("path", DefaultEditPath), s.Int("steps", 3))
}

// playEdit plays the Edit scenario. Each turn first waits sleep seconds
// with nothing said: the step has begun (OpenCode has taken its snapshot)
// and its change comes at the end, so the steps of children running at
// the same time overlap, as real ones do.
func (c conversation) playEdit(s Script, final reply) reply {
	if c.turn >= s.Int("steps", 3) {
		return final
	}
	path := s.String("path", DefaultEditPath)
	tag := s.String("tag", path)
	n := c.turn + 1
	delay := s.Duration("sleep", 0.5)
	var call toolCall
	switch via := s.String("via", "write"); {
	case via == "bash":
		call = bashCall(fmt.Sprintf("echo %q >> %q", EditLine(tag, n), path), fmt.Sprintf("append line %d", n))
	case via == "edit" && n > 1:
		prev := EditLine(tag, n-1) + "\n"
		call = toolCall{name: "edit", args: map[string]any{
			"filePath": path, "oldString": prev, "newString": prev + EditLine(tag, n) + "\n"}}
	default:
		call = toolCall{name: "write", args: map[string]any{"filePath": path, "content": EditContent(tag, n)}}
	}
	if r, ok := c.need(s, call.name); !ok {
		return r
	}
	return reply{calls: []toolCall{call}, firstDelay: delay}
}
