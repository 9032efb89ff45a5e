package format

import (
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

// Marks for a session's status. Each is one cell wide so columns line up;
// busy sessions show the spinner frame instead.
const (
	MarkDone    = "✓"
	MarkFailed  = "✗"
	MarkRetry   = "↻"
	MarkWaiting = "?"
	MarkPending = "·"
	// MarkInterrupted is a call left open by a session that has stopped.
	MarkInterrupted = "⊘"
)

// StatusMark is the one-cell mark for a session's display status, and the
// style to draw it in.
func StatusMark(d model.Display, spin string, s *styles.Styles) (string, styles.Ink) {
	switch d {
	case model.DisplayBusy:
		return spin, s.Ink.Busy
	case model.DisplayRetry:
		return MarkRetry, s.Ink.Retry
	case model.DisplayWaiting:
		return MarkWaiting, s.Ink.Waiting
	case model.DisplayError:
		return MarkFailed, s.Ink.Failed
	default:
		return MarkDone, s.Ink.Done
	}
}

// StatusWord names a display status for the detail pane.
func StatusWord(d model.Display) string {
	switch d {
	case model.DisplayBusy:
		return "running"
	case model.DisplayRetry:
		return "retrying"
	case model.DisplayWaiting:
		return "waiting on you"
	case model.DisplayError:
		return "failed"
	default:
		return "idle"
	}
}

// ToolMark is the one-cell mark for a tool call's status.
func ToolMark(st model.ToolStatus, spin string, s *styles.Styles) (string, styles.Ink) {
	switch st {
	case model.ToolRunning:
		return spin, s.Ink.Busy
	case model.ToolCompleted:
		return MarkDone, s.Ink.Done
	case model.ToolError:
		return MarkFailed, s.Ink.Failed
	case model.ToolInterrupted:
		return MarkInterrupted, s.Ink.Retry
	default:
		return MarkPending, s.Ink.Dim
	}
}
