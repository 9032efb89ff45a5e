package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/octop-dev/octop/internal/sanitize"
	"github.com/octop-dev/octop/model"
)

// Plain is an entry as `octop log` prints it: a prompt after "» " (and
// under it "(queued: …)" while the model has yet to see it), text as
// it is, reasoning after "~ ", a tool call as "⟩ tool: input" and then its
// output indented by four spaces, an error after "✗ ", a background
// task's end notice as "◂ background task completed: worker 0 → ses_…"
// and then the child's answer indented. It ends with a newline.
func Plain(e Entry) string {
	var b strings.Builder
	switch e.Kind {
	case KindPrompt:
		prefixLines(&b, "» ", "  ", e.Text)
		if e.Queued {
			b.WriteString("  (" + QueuedNote + ")\n")
		}
	case KindReasoning:
		prefixLines(&b, "~ ", "~ ", e.Text)
	case KindError:
		b.WriteString("✗ " + ErrorLine(e) + "\n")
	case KindBackground:
		b.WriteString(NoticeLine(e) + "\n")
		if e.Text != "" {
			prefixLines(&b, "    ", "    ", e.Text)
		}
	case KindTool:
		b.WriteString(ToolLine(e) + "\n")
		if e.Error != "" && (e.Status == model.ToolError.String() || e.Status == model.ToolAborted.String()) {
			prefixLines(&b, "    ✗ ", "      ", e.Error)
		}
		if e.Output != "" {
			prefixLines(&b, "    ", "    ", e.Output)
		}
	default:
		prefixLines(&b, "", "", e.Text)
	}
	return b.String()
}

// QueuedNote is what a queued prompt (Entry.Queued) says of itself.
const QueuedNote = "queued: the model sees it at its next step"

// ToolLine is a call's head line: "⟩ tool: input", with "→ child" for a
// task call that names its child and the state of one not yet completed.
func ToolLine(e Entry) string {
	s := "⟩ " + e.Tool
	what := e.Input
	if what == "" {
		what = oneLine(e.Title)
	}
	if what != "" {
		s += ": " + what
	}
	if e.ChildID != "" {
		s += " → " + e.ChildID
	}
	switch e.Status {
	case model.ToolPending.String(), model.ToolRunning.String(), model.ToolAborted.String(), model.ToolInterrupted.String():
		s += "  (" + e.Status + ")"
	case model.ToolError.String():
		s += "  (failed)"
	}
	if e.Background {
		s += "  (background)"
	}
	return s
}

// NoticeLine is a background notice's line: "◂ background task
// completed: worker 0 → ses_…" (or "failed").
func NoticeLine(e Entry) string {
	s := "◂ background task completed"
	if e.Status == "error" {
		s = "◂ background task failed"
	}
	if t := oneLine(e.Title); t != "" {
		s += ": " + t
	}
	if e.ChildID != "" {
		s += " → " + e.ChildID
	}
	return s
}

// ErrorLine is "Name: message" of a KindError entry.
func ErrorLine(e Entry) string {
	switch {
	case e.Error == "":
		return oneLine(e.Text)
	case e.Text == "":
		return e.Error
	}
	return e.Error + ": " + oneLine(e.Text)
}

// WritePlain prints entries as Plain does, a blank line between them.
func WritePlain(w io.Writer, entries []Entry) error {
	for _, e := range entries {
		if _, err := fmt.Fprint(w, Plain(e)+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// WriteNDJSON prints each entry as one line of JSON, with every control
// character in its strings escaped (sanitize.JSON).
func WriteNDJSON(w io.Writer, entries []Entry) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, e := range entries {
		buf.Reset()
		if err := enc.Encode(e); err != nil {
			return err
		}
		if _, err := w.Write(sanitize.JSON(buf.Bytes())); err != nil {
			return err
		}
	}
	return nil
}

// prefixLines writes text's lines, the first after first and the rest
// after rest, trailing blank lines dropped.
func prefixLines(b *strings.Builder, first, rest, text string) {
	text = strings.TrimRight(text, " \t\r\n")
	for i, line := range strings.Split(text, "\n") {
		p := rest
		if i == 0 {
			p = first
		}
		if line == "" {
			p = strings.TrimRight(p, " ")
		}
		b.WriteString(p + strings.TrimRight(line, "\r") + "\n")
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
