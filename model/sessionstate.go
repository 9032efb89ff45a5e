package model

import (
	"fmt"
	"strings"
)

// Kind is what a session is doing, or how its last run ended: the one
// status every view (tree, detail, header, `octop result`, `octop tree`)
// shows for it.
type Kind uint8

// Kinds. The first five are live or unknown, and so is KindBackground
// (last, so the others keep their numbers); the rest are end states.
const (
	// KindNotLoaded: idle, but its messages have not been read yet, so
	// how its last run ended is unknown.
	KindNotLoaded Kind = iota
	KindRunning        // busy
	KindWaiting        // blocked on a permission or a question
	KindRetrying       // waiting to retry a provider error
	KindIdle           // never ran: no messages
	KindComplete       // the last run finished
	KindFailed         // the last run ended in an error
	KindAborted        // stopped by a person (or by octop)
	// KindInterrupted: the run stopped without finishing: a reply never
	// completed, or a tool call was left open on an idle session (the
	// server died, or stopped the run without saying why).
	KindInterrupted
	// KindDenied: the run ended on a rejected permission or a dismissed
	// question.
	KindDenied
	// KindBackground: idle, but background tasks it launched still run,
	// or one ended and its end notice has not come yet (Detail: "waiting
	// on 2 background tasks"). The session is not done: the server runs it
	// again to answer each notice.
	KindBackground
)

// SessionState is a session's Kind with the why: Reason is a short word
// for scripts (aborted, interrupted, denied, or the error's name for
// failed), Detail one line for a person.
type SessionState struct {
	Kind   Kind
	Reason string
	Detail string
}

// Live reports whether the session is still working: running, retrying,
// waiting on an answer, or waiting on the background tasks it launched.
// A root is done once its kind is neither live nor KindNotLoaded.
func (k Kind) Live() bool {
	return k == KindRunning || k == KindWaiting || k == KindRetrying || k == KindBackground
}

// Bad reports whether the last run ended without doing its job and a
// person should look: failed, interrupted or denied. Aborted is not bad:
// someone chose it.
func (k Kind) Bad() bool { return k == KindFailed || k == KindInterrupted || k == KindDenied }

// Errors and texts the server uses for the end states it does not name.
const (
	abortedError = "MessageAbortedError"
	// A rejected permission fails the tool call with this text; with
	// feedback the run goes on, so only a run that ended right there is
	// denied.
	rejectedText  = "The user rejected permission"
	dismissedText = "The user dismissed this question"
	// 1.1.65 puts this before the tool's error text ("Error: The user
	// rejected permission to use this specific tool call."); 1.18.33
	// does not.
	errorPrefix = "Error: "
)

// StateOf derives the session's state from what the model holds: its run
// status, pending requests, last error and the messages and tool calls of
// its last run, and, for a run that stopped without a word on how, the
// grace the server has to say it (stopping.go). It is the one derivation
// every view uses.
func StateOf(ss *Session) SessionState {
	st := baseState(ss)
	if st.Kind == KindInterrupted && ss.stop == stopPending {
		return stoppingState
	}
	return st
}

// baseState is StateOf with no grace.
func baseState(ss *Session) SessionState {
	if ss == nil {
		return SessionState{Kind: KindNotLoaded}
	}
	if ss.x != nil && ss.x.frozen != nil {
		return ss.x.frozen.state // sealed: what it was when its read ended
	}
	switch {
	case ss.waiting > 0:
		return SessionState{Kind: KindWaiting, Detail: "asks for a permission or an answer"}
	case ss.run == runBusy:
		return SessionState{Kind: KindRunning}
	case ss.run == runRetry:
		return SessionState{Kind: KindRetrying, Detail: fmt.Sprintf("attempt %d: %s", ss.rd().attempt, ss.rd().retryMsg)}
	}
	if bg, ok := ss.backgroundState(); ok {
		return bg
	}
	switch {
	case !ss.Loaded:
		return SessionState{Kind: KindNotLoaded}
	}
	if ss.wasAborted() {
		// The server's error says so; or, before it writes the error, a
		// call of the last reply says an abort cut it.
		who := ss.rd().abortedBy
		if who == "" {
			who = "a user"
		}
		return SessionState{Kind: KindAborted, Reason: ReasonAborted, Detail: "aborted by " + who}
	}
	if t := ss.deniedCall(); t != nil {
		return SessionState{Kind: KindDenied, Reason: ReasonDenied, Detail: deniedDetail(t)}
	}
	if ss.Err != nil {
		detail := ss.Err.Name
		if m := oneLine(ss.Err.Data.Message); m != "" {
			detail += ": " + m
		}
		return SessionState{Kind: KindFailed, Reason: ss.Err.Name, Detail: detail}
	}
	return ss.endOfRun()
}

// endOfRun tells complete from interrupted for an idle session with no
// error, from its last run's messages and calls.
func (ss *Session) endOfRun() SessionState {
	if len(ss.rd().msgs) == 0 {
		return SessionState{Kind: KindIdle, Detail: "never ran"}
	}
	if a := ss.latestAssistant(); a != nil && !a.done && a.id > ss.lastUserID() {
		return SessionState{Kind: KindInterrupted, Reason: ReasonInterrupted, Detail: "the last reply never finished"}
	}
	if ss.StatusKnown && ss.nOpen > 0 {
		for i := len(ss.Tools) - 1; i >= 0; i-- {
			if !ss.Tools[i].Ended() {
				return SessionState{Kind: KindInterrupted, Reason: ReasonInterrupted,
					Detail: "a " + ss.Tools[i].Tool + " call was left running"}
			}
		}
	}
	if ss.latestAssistant() == nil || ss.lastUserID() > ss.latestAssistant().id {
		// A prompt with no reply yet: prompt_async answers before the
		// run starts, so this is a run about to begin.
		return SessionState{Kind: KindRunning, Detail: "starting"}
	}
	return SessionState{Kind: KindComplete}
}

// cutByAbort says a call of the last reply, newer than the last prompt
// and stopped unfinished, was cut by an abort: the run was aborted,
// whatever else is still open.
func (ss *Session) cutByAbort() bool {
	if ss.nAborted == 0 {
		return false
	}
	a := ss.latestAssistant()
	if a == nil || a.done || a.id < ss.lastUserID() {
		return false
	}
	for i := len(ss.Tools) - 1; i >= 0 && ss.Tools[i].MessageID >= a.id; i-- {
		if t := &ss.Tools[i]; t.MessageID == a.id && t.Status == ToolAborted {
			return true
		}
	}
	return false
}

// deniedCall is the rejected call that ended the last run: a call of the
// newest assistant message, newer than the last prompt, failed by a
// rejected permission or a dismissed question.
func (ss *Session) deniedCall() *ToolCall {
	a := ss.latestAssistant()
	if a == nil || a.id < ss.lastUserID() {
		return nil
	}
	for i := len(ss.Tools) - 1; i >= 0; i-- {
		t := &ss.Tools[i]
		if t.MessageID < a.id {
			break
		}
		if t.MessageID == a.id && t.Status == ToolError && rejection(t.Error) {
			return t
		}
	}
	return nil
}

func rejection(err string) bool {
	err = strings.TrimPrefix(err, errorPrefix)
	return strings.HasPrefix(err, rejectedText) && !strings.Contains(err, "feedback") ||
		strings.HasPrefix(err, dismissedText)
}

func deniedDetail(t *ToolCall) string {
	if strings.HasPrefix(strings.TrimPrefix(t.Error, errorPrefix), dismissedText) {
		return "a question was dismissed"
	}
	return "permission to use " + t.Tool + " was rejected"
}

func (ss *Session) lastUserID() string {
	msgs := ss.rd().msgs
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].role == roleUser {
			return msgs[i].id
		}
	}
	return ""
}

// StateOf is the state of the session with that id (KindNotLoaded for an
// unknown id).
func (s *State) StateOf(id string) SessionState { return StateOf(s.sessions[id]) }

// NoteAbortedBy records who aborted a session (octop's watchdog, say), so
// its aborted state says so. It changes nothing else.
func (s *State) NoteAbortedBy(id, who string) {
	if ss := s.sessions[id]; ss != nil && ss.rd().abortedBy != who {
		ss.more().abortedBy = who
		s.version++
		s.changed(ss, s.version)
	}
}

func oneLine(v string) string { return strings.Join(strings.Fields(v), " ") }
