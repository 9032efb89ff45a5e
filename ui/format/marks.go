package format

import (
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

// Marks for a session's state (model.StateOf). Each is one cell wide so
// columns line up; a running session shows the spinner frame instead.
const (
	MarkDone        = "✓" // complete
	MarkFailed      = "✗" // failed with an error
	MarkRetry       = "↻" // waiting to retry a provider error
	MarkWaiting     = "?" // waiting on you: a permission or a question
	MarkPending     = "·" // a tool call not started yet
	MarkNotLoaded   = "…" // its history is still being read
	MarkIdle        = "○" // never ran
	MarkAborted     = "■" // stopped by a person (or by octop)
	MarkInterrupted = "⊘" // stopped without finishing; also a call left open
	MarkDenied      = "⊖" // ended on a rejected permission or question
	MarkBackground  = "◔" // idle, waiting on background tasks it launched
	// MarkUndone follows the title of a session whose changes are undone
	// (its revert field): until a redo or its next prompt.
	MarkUndone = "↶"
	// MarkStale replaces the spinner while the server is unreachable: the
	// session was running when last heard of.
	MarkStale = "⋯"
)

// StateMark is the one-cell mark for a session's state, and the ink to
// draw it in.
func StateMark(k model.Kind, spin string, s *styles.Styles) (string, styles.Ink) {
	switch k {
	case model.KindRunning:
		return spin, s.Ink.Busy
	case model.KindRetrying:
		return MarkRetry, s.Ink.Retry
	case model.KindWaiting:
		return MarkWaiting, s.Ink.Waiting
	case model.KindFailed:
		return MarkFailed, s.Ink.Failed
	case model.KindAborted:
		return MarkAborted, s.Ink.Aborted
	case model.KindInterrupted:
		return MarkInterrupted, s.Ink.Interrupted
	case model.KindDenied:
		return MarkDenied, s.Ink.Denied
	case model.KindComplete:
		return MarkDone, s.Ink.Done
	case model.KindIdle:
		return MarkIdle, s.Ink.Dim
	case model.KindBackground:
		return MarkBackground, s.Ink.Busy
	}
	return MarkNotLoaded, s.Ink.Dim
}

// StateWord names a session's state for the detail pane: the kind's word
// ("complete", "denied", "not loaded" …), or the state's detail for one
// waiting on background tasks ("waiting on 2 background tasks").
func StateWord(st model.SessionState) string {
	if st.Kind == model.KindBackground && st.Detail != "" {
		return st.Detail
	}
	return st.Kind.String()
}

// ToolMark is the one-cell mark for a tool call's status
// (model.CallStatus): a call an abort cut is ■, never ✓.
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
	case model.ToolAborted:
		return MarkAborted, s.Ink.Aborted
	default:
		return MarkPending, s.Ink.Dim
	}
}
