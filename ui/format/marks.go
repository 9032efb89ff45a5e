package format

import (
	"charm.land/lipgloss/v2"
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
func StatusMark(d model.Display, spin string, s styles.Styles) (string, lipgloss.Style) {
	switch d {
	case model.DisplayBusy:
		return spin, s.Busy
	case model.DisplayRetry:
		return MarkRetry, s.Retry
	case model.DisplayWaiting:
		return MarkWaiting, s.Waiting
	case model.DisplayError:
		return MarkFailed, s.Failed
	default:
		return MarkDone, s.Done
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
func ToolMark(st model.ToolStatus, spin string, s styles.Styles) (string, lipgloss.Style) {
	switch st {
	case model.ToolRunning:
		return spin, s.Busy
	case model.ToolCompleted:
		return MarkDone, s.Done
	case model.ToolError:
		return MarkFailed, s.Failed
	case model.ToolInterrupted:
		return MarkInterrupted, s.Retry
	default:
		return MarkPending, s.Dim
	}
}
