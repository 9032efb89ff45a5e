package model

// The words every output uses for how a session stands, here once: the
// screen, `octop tree`, `result`, `watch`, `usage --by end`, the hook and
// the spans all read them from this table, so no two outputs can name
// one state two ways.

// End words: how a session stands, as scripts read it (`usage --by end`,
// the spans' opencode.state). Every live kind is running.
const (
	EndComplete    = "complete"
	EndFailed      = "failed"
	EndAborted     = "aborted" // stopped by someone: neither failed nor done
	EndInterrupted = "interrupted"
	EndDenied      = "denied"
	EndRunning     = "running"
	EndIdle        = "idle"    // never ran
	EndUnknown     = "unknown" // not loaded: how its last run ended is unknown
)

// WordWaiting is a running session blocked on the person, where an
// output tells it apart from running (`octop watch`'s status).
const WordWaiting = "waiting"

// Ends lists the end words in the order a person reads them.
var Ends = [...]string{EndComplete, EndFailed, EndAborted, EndInterrupted, EndDenied,
	EndRunning, EndIdle, EndUnknown}

// Status words: a session as an async task's caller sees it (`octop
// result`, `tree --json`'s status).
const (
	StatusRunning  = "running"
	StatusComplete = "complete"
	StatusError    = "error" // failed, aborted, interrupted or denied
	StatusIdle     = "idle"  // never ran
)

// Reason words: why a session stands as it does, beside its status.
// Failed has the error's name instead.
const (
	ReasonAborted     = EndAborted
	ReasonInterrupted = EndInterrupted
	ReasonDenied      = EndDenied
	// ReasonBackground: running, idle while background tasks it
	// launched run.
	ReasonBackground = "background"
	// ReasonStopping: running, idle a moment ago with its last reply
	// unfinished; the server has yet to say how it ended (see Grace).
	ReasonStopping = "stopping"
)

// kindWords are the words a person reads for each kind.
var kindWords = [...]string{
	KindNotLoaded: "not loaded", KindRunning: EndRunning, KindWaiting: "waiting on you",
	KindRetrying: "retrying", KindIdle: EndIdle, KindComplete: EndComplete, KindFailed: EndFailed,
	KindAborted: EndAborted, KindInterrupted: EndInterrupted, KindDenied: EndDenied,
	KindBackground: "waiting on background tasks",
}

// String is the word a person reads for the kind.
func (k Kind) String() string {
	if int(k) < len(kindWords) {
		return kindWords[k]
	}
	return "unknown"
}

// End is the kind's end word.
func (k Kind) End() string {
	switch {
	case k.Live():
		return EndRunning
	case k == KindNotLoaded || int(k) >= len(kindWords):
		return EndUnknown
	}
	return kindWords[k]
}

// KindOfEnd is the kind an end word names; ok is false for running and
// unknown, which name more than one.
func KindOfEnd(word string) (k Kind, ok bool) {
	for _, k := range []Kind{KindComplete, KindFailed, KindAborted, KindInterrupted, KindDenied, KindIdle} {
		if k.End() == word {
			return k, true
		}
	}
	return KindNotLoaded, false
}

// Status is the kind in async-task terms, as `octop result` and
// `octop tree --json` print it: running, complete or error ("" while not
// loaded, idle for a session that never ran). KindBackground is running
// (with the reason background).
func (k Kind) Status() string {
	switch {
	case k.Live():
		return StatusRunning
	case k == KindComplete:
		return StatusComplete
	case k == KindIdle:
		return StatusIdle
	case k == KindNotLoaded:
		return ""
	}
	return StatusError
}
