package watchdog

import "github.com/octop-dev/octop/model"

// phase is where a session's lifecycle stands, as far as events go.
type phase int

const (
	phaseNone        phase = iota // never seen running
	phaseBusy                     // running (busy or retrying)
	phaseWaiting                  // blocked on a permission or a question
	phaseDone                     // its last run completed
	phaseFailed                   // its last run ended in an error
	phaseAborted                  // its last run was aborted
	phaseInterrupted              // idle with tool calls left open (a crash, a restart)
)

var phaseNames = [...]string{"idle", "busy", "waiting", "done", "failed", "aborted", "interrupted"}

func (p phase) String() string { return phaseNames[p] }

func (p phase) ended() bool { return p >= phaseDone }

// endEvent is the event a run ending in p emits.
func (p phase) endEvent() string {
	switch p {
	case phaseFailed:
		return SessionFailed
	case phaseAborted:
		return SessionAborted
	case phaseInterrupted:
		return SessionInterrupted
	}
	return SessionDone
}

// abortedError is the error name OpenCode gives a run stopped by abort.
const abortedError = "MessageAbortedError"

// phaseOf derives a session's phase from the model.
func phaseOf(st *model.State, ss *model.Session) phase {
	switch st.Display(ss.ID) {
	case model.DisplayWaiting:
		return phaseWaiting
	case model.DisplayBusy, model.DisplayRetry:
		return phaseBusy
	}
	switch {
	case !ss.StatusKnown:
		return phaseNone // no status yet: it may not have started
	case ss.Err != nil && ss.Err.Name == abortedError:
		return phaseAborted
	case ss.Err != nil:
		return phaseFailed
	case st.Counts(ss.ID).ToolsInterrupted > 0:
		return phaseInterrupted
	case ran(ss):
		return phaseDone
	}
	return phaseNone
}

// ran reports whether an idle session shows any sign of having run: a
// session just created, before its first status, has none.
func ran(ss *model.Session) bool {
	return len(ss.Tools) > 0 || ss.LastText != "" || ss.Tokens > 0 || ss.RunEnd > 0
}
