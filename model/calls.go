package model

import (
	"encoding/json"
	"strings"

	"github.com/octop-dev/octop/internal/wire"
)

// A tool call's outcome is told here, once: the detail pane's marks,
// `octop log`, `result`, the transcript, `tree --json`'s counts, the row's
// count and the spans all read CallStatus.

// callWords are the words of the tool states, as `octop log --json`,
// `result` and the spans' opencode.tool.status write them: the server's
// four, and aborted and interrupted.
var callWords = [...]string{ToolPending: wire.ToolPending, ToolRunning: wire.ToolRunning,
	ToolCompleted: wire.ToolCompleted, ToolError: wire.ToolError,
	ToolInterrupted: EndInterrupted, ToolAborted: EndAborted}

// String is the state's word: pending, running, completed, error,
// interrupted or aborted.
func (t ToolStatus) String() string {
	if t >= 0 && int(t) < len(callWords) {
		return callWords[t]
	}
	return wire.ToolPending
}

// Stopped is what a call in state t shows once its session has stopped:
// a call still pending or running was cut, by the abort that ended the
// run when aborted, else interrupted; any other stays.
func (t ToolStatus) Stopped(aborted bool) ToolStatus {
	switch {
	case t != ToolPending && t != ToolRunning:
		return t
	case aborted:
		return ToolAborted
	}
	return ToolInterrupted
}

// Texts the server leaves in a call an abort cut.
const (
	// 1.18's bash: a completed call, exit null, this in its output.
	abortedCommand = "User aborted the command"
	// Both versions' other calls open when an abort lands.
	abortedCall = "Tool execution aborted"
	// A task call whose child was aborted.
	cancelledTask = "Task cancelled"
)

// CallMarks are the texts CallStatus reads in a call's output and
// metadata (an abort's note, a killed command's missing exit status, the
// flag 1.18 sets on a call its abort closed), as the server writes them:
// a reader that decodes only part of a history (`octop tree`) keeps an
// output or metadata that holds one.
var CallMarks = []string{abortedCommand, `"exit":null`, `"interrupted":true`}

// CallStatus is a tool call's outcome from the server's state of it, in
// a session whose state is k (StateOf; KindRunning while it may still
// run). A call an abort cut is ToolAborted, whatever the server stored
// (completed with exit null, or an error with an abort text); a call left
// open by a session that has stopped is cut too: ToolAborted when the
// session was aborted, else ToolInterrupted.
func CallStatus(st *wire.ToolState, k Kind) ToolStatus {
	s := storedCall(st)
	if k.Live() || k == KindNotLoaded {
		return s
	}
	return s.Stopped(k == KindAborted)
}

// storedCall is the call's own outcome, before its session's state.
func storedCall(st *wire.ToolState) ToolStatus {
	if st == nil {
		return ToolPending
	}
	switch st.Status {
	case wire.ToolRunning:
		return ToolRunning
	case wire.ToolCompleted:
		if cutCommand(st) {
			return ToolAborted
		}
		return ToolCompleted
	case wire.ToolError:
		if e := strings.TrimPrefix(st.Error, errorPrefix); strings.HasPrefix(e, abortedCall) ||
			strings.HasPrefix(e, cancelledTask) || interruptedMark(st.Metadata) {
			return ToolAborted
		}
		return ToolError
	}
	return ToolPending
}

// cutCommand says a completed call is a command an abort killed: no exit
// status, and the server's abort note in its output.
func cutCommand(st *wire.ToolState) bool {
	if !strings.Contains(st.Output, abortedCommand) || len(st.Metadata) <= 2 {
		return false
	}
	var md struct {
		Exit json.RawMessage `json:"exit"`
	}
	if json.Unmarshal(st.Metadata, &md) != nil {
		return false
	}
	return len(md.Exit) == 0 || string(md.Exit) == "null"
}

// interruptedMark says the call's metadata says interrupted: true (1.18
// marks a call its abort closed so).
func interruptedMark(md json.RawMessage) bool {
	if len(md) <= 2 || !strings.Contains(string(md), `"interrupted"`) {
		return false
	}
	var v struct {
		Interrupted bool `json:"interrupted"`
	}
	return json.Unmarshal(md, &v) == nil && v.Interrupted
}

// CallStatus is the outcome of Tools[i], as every output shows it: its
// own (see the package function CallStatus), and when left open in a
// session that has stopped, aborted if an abort ended the run, else
// interrupted. A background task call follows its child instead: running
// while the child runs, then how the child ended.
func (ss *Session) CallStatus(i int) ToolStatus {
	t := &ss.Tools[i]
	switch {
	case t.follows():
		return ss.follow(t).shown
	case t.Ended() || !ss.stopped():
		return t.Status
	}
	return t.Status.Stopped(ss.wasAborted())
}

// wasAborted says the session's last run was aborted: the server's error
// says so, or a call of its last reply does.
func (ss *Session) wasAborted() bool {
	if ss.Err != nil {
		return ss.Err.Name == abortedError
	}
	return ss.cutByAbort()
}

// FindTool is the index in Tools of the call with that part id.
func (ss *Session) FindTool(partID string) (int, bool) { return ss.findTool(partID) }

// Tools is how many tool calls the counts cover, whatever their state.
func (c Counts) Tools() int {
	return c.ToolsRunning + c.ToolsDone + c.ToolsFailed + c.ToolsAborted + c.ToolsInterrupted
}
