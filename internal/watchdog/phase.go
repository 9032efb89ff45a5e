package watchdog

import "github.com/octop-dev/octop/model"

// phase is where a session's lifecycle stands, as far as events go.
type phase uint8

const (
	phaseNone        phase = iota // never seen running
	phaseBusy                     // running (busy or retrying)
	phaseWaiting                  // blocked on a permission or a question
	phaseDone                     // its last run completed
	phaseFailed                   // its last run ended in an error
	phaseAborted                  // its last run was aborted
	phaseInterrupted              // stopped without finishing (a crash, a restart)
	phaseDenied                   // ended on a rejected permission or a dismissed question
)

// phaseKinds are the model's kinds the phases stand for: their words are
// the model's (model/words.go).
var phaseKinds = [...]model.Kind{model.KindIdle, model.KindRunning, model.KindWaiting, model.KindComplete,
	model.KindFailed, model.KindAborted, model.KindInterrupted, model.KindDenied}

// kind is the model's kind the phase stands for.
func (p phase) kind() model.Kind { return phaseKinds[p] }

// String is the phase's word, as `octop watch` prints it: the model's end
// word, or waiting.
func (p phase) String() string {
	if p == phaseWaiting {
		return model.WordWaiting
	}
	return p.kind().End()
}

func (p phase) ended() bool { return p >= phaseDone }

func (p phase) live() bool { return p == phaseBusy || p == phaseWaiting }

// endEvent is the event a run ending in p emits.
func (p phase) endEvent() string {
	switch p {
	case phaseFailed, phaseDenied:
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

// phaseOf derives a session's phase from model.StateOf, the one
// derivation of a session's state. Where that cannot tell yet (an idle
// session whose messages were not read), it falls back on the run state,
// the session's error and its interrupted calls.
func phaseOf(st *model.State, ss *model.Session) phase {
	k := model.StateOf(ss).Kind
	if !ss.StatusKnown && !k.Live() {
		return phaseNone // no status yet: an end read from messages alone may be stale
	}
	switch k {
	case model.KindWaiting:
		return phaseWaiting
	case model.KindRunning, model.KindRetrying, model.KindBackground:
		// Waiting on the background tasks it launched is not an end: the
		// server runs it again to answer each one.
		return phaseBusy
	case model.KindIdle:
		return phaseNone
	case model.KindComplete:
		return phaseDone
	case model.KindFailed:
		return phaseFailed
	case model.KindAborted:
		return phaseAborted
	case model.KindInterrupted:
		return phaseInterrupted
	case model.KindDenied:
		return phaseDenied
	}
	return guessPhase(st, ss)
}

// guessPhase is phaseOf for a session whose history is not loaded.
func guessPhase(st *model.State, ss *model.Session) phase {
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
	return len(ss.Tools) > 0 || ss.LastText() != "" || ss.Tokens > 0 || ss.RunEnd > 0
}
