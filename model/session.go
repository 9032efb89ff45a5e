package model

import "github.com/octop-dev/octop/internal/wire"

// Stream is what the model streams: nothing, its reasoning or its reply.
type Stream uint8

// Streams.
const (
	StreamNone Stream = iota
	StreamReasoning
	StreamText
)

// ToolStatus is a tool call's outcome (CallStatus): the server's four
// states, told apart where the server's word misleads.
type ToolStatus int

// Tool states: the server's pending, running, completed and error, and
// two it has no word for.
const (
	ToolPending ToolStatus = iota
	ToolRunning
	ToolCompleted
	ToolError
	// ToolInterrupted is never stored: it is what CallStatus gives for a
	// call still pending or running in a session that has stopped (an
	// abort the server did not close it after, a crash), so a dead call
	// is not shown as running forever.
	ToolInterrupted
	// ToolAborted is a call an abort cut: the server stores it completed
	// (1.18's bash: exit null, "User aborted the command") or as an error
	// ("Tool execution aborted", "Task cancelled"). Neither done nor
	// failed: someone stopped it.
	ToolAborted
)

// ToolCall is one tool call of a session: the summary the native task tool
// keeps for its children, plus times, an error and an input digest. Its
// output is not kept: what shows a call is its title or input, and the
// transcript reads the output when asked.
type ToolCall struct {
	PartID     string
	MessageID  string
	Tool       string
	Status     ToolStatus
	Title      string
	Input      string // one-line digest: the bash command, the file path, the pattern
	Start, End int64  // Unix ms; 0 when unknown
	Error      string
	// LiveTail is, while the call runs, the last bytes of the output it
	// has streamed so far (bash sends it as it comes), so a person can
	// tell a stuck command from a working one. Empty once the call ends.
	LiveTail string
	ChildID  string // for task calls: the child session it started, once known
	// Background marks a task call that launched its child in the
	// background (metadata.background on 1.18): it completed at once, and
	// CallStatus follows the child instead.
	Background bool
}

// Ended reports whether the call reached a final state on the server.
func (t *ToolCall) Ended() bool { return t.Status >= ToolCompleted }

// Session is one node of the tree. It is kept small: a server may list
// 50,000 sessions, and what a session keeps beyond the list's entry (its
// messages' accounts, texts, todos, retry) is made only once something
// needs it (see more.go).
type Session struct {
	ID        string
	Title     string
	Agent     string
	ParentID  string
	Directory string
	Created   int64 // Unix ms
	Updated   int64 // Unix ms

	// Err is the error the last run ended with (e.g. MessageAbortedError);
	// cleared when the session goes busy again.
	Err   *wire.ErrorInfo
	Tools []ToolCall

	Tokens float64 // this session's own tokens
	Cost   float64 // this session's own cost
	// LastActive is the latest time (Unix ms) seen in this session's data;
	// follow mode picks the busy session with the largest one.
	LastActive int64

	// RunStart is when the newest prompt came: the creation time of the
	// latest user message that is not a background task's notice (0
	// before one). When the session ran is State.Runs.
	RunStart int64
	// RunEnd is the latest end time seen (message completed, tool ended),
	// a sign the session did something. A run cut short (an abort, a
	// crash) may have none: see State.Runs.
	RunEnd int64
	// TaskPartID is the part id of the parent's task call that started
	// this session, once known.
	TaskPartID string

	// Below: bookkeeping the reducer keeps so every read stays cheap.
	parent *Session   // nil for a root (no parent, or one not known yet)
	kids   []*Session // the children, in creation order (Children)
	x      *more      // nil until something beyond the list entry is kept
	runs   []runRec   // when it ran, oldest first, apart (see runs.go)
	rev    uint64     // State.version of this session's last change
	// derived per State.aggV, see derive.go
	subTokens, subCost float64
	subActive          int64 // the latest LastActive in the subtree
	idx                int32 // position in State.list
	nBg                int32 // background task calls
	nOpen              int32 // tool calls pending or running
	nDone              int32 // completed
	nFailed            int32 // error
	nAborted           int32 // cut by an abort
	waiting            int32 // pending permissions and questions
	runBelow           int32 // running below, not waiting on the person
	waitBelow          int32 // waiting on the person below
	unpriced           int32 // replies that used tokens with no cost (OwnCost)
	subUnpriced        int32 // unpriced replies in the subtree

	// Known is false for a placeholder made because an event named this
	// session before its session.created arrived.
	Known bool
	// StatusKnown is true once a status event or a snapshot covering this
	// session said what it is doing. Until then Run is a guess (idle) and
	// its open tool calls are shown as running, not interrupted.
	StatusKnown bool
	// Loaded is true once the model can tell how the last run ended: its
	// messages were read, or the stream showed the session from its
	// creation or its run from the prompt. Until then StateOf says
	// KindNotLoaded rather than guess.
	Loaded bool
	// Streaming says whether the model is writing a reply or thinking
	// right now (a text or reasoning part still open), between tool calls.
	Streaming Stream
	run       runState // see Run
	// historyRead: every message was read (a snapshot's messages) or the
	// stream showed them all (watched since session.created).
	historyRead bool
	dq          uint8 // the queues it waits on (qDerive, qTally), see tally.go
	tcls        uint8 // how Tally counts it
	stop        uint8 // where it stands in the grace of a stop, see stopping.go
}

// runState is the server's run status, kept in a byte.
type runState uint8

const (
	runIdle runState = iota
	runBusy
	runRetry
)

// Run is the server's run status: wire.StatusIdle, StatusBusy or
// StatusRetry (GET /session/status, session.status); see Retry.
func (ss *Session) Run() string {
	switch ss.run {
	case runBusy:
		return wire.StatusBusy
	case runRetry:
		return wire.StatusRetry
	}
	return wire.StatusIdle
}

// Children are the session's children, in creation order. The slice is
// shared: do not change it.
func (ss *Session) Children() []*Session { return ss.kids }

// ChildIDs are the ids of the session's children, in creation order, as
// a slice of their own.
func (ss *Session) ChildIDs() []string {
	ids := make([]string, len(ss.kids))
	for i, k := range ss.kids {
		ids[i] = k.ID
	}
	return ids
}

// Snapshot is a full REST read of the server: what GET /session,
// GET /session/status and (optionally) the messages of busy sessions say.
type Snapshot struct {
	Sessions []wire.Session
	// Complete says Sessions is every session the server has for this
	// State (not a page or a roots-only list), so a known session missing
	// from it was deleted while the stream was down and is dropped.
	Complete    bool
	Status      map[string]wire.SessionStatus
	Messages    map[string][]wire.MessageWithParts // by session id; may be nil
	Permissions []wire.PermissionRequest
	Questions   []wire.QuestionRequest
	// PermissionsUnread and QuestionsUnread, when set, say why that list
	// could not be read. A failed read is not "none pending": the state
	// keeps the requests of that kind it had (the stream tells the rest),
	// and the reader says the failure (Unread) where it says its others.
	PermissionsUnread string `json:",omitempty"`
	QuestionsUnread   string `json:",omitempty"`
	// Stops are a reader's earlier sights of sessions stopped without a
	// word on how (State.Stops), so a new State's grace runs from them.
	Stops map[string]int64
}

// Unread says what the snapshot could not read of the pending asks, ""
// when it read both lists.
func (s Snapshot) Unread() string {
	switch {
	case s.PermissionsUnread != "" && s.QuestionsUnread != "":
		return s.PermissionsUnread + "; " + s.QuestionsUnread
	case s.PermissionsUnread != "":
		return s.PermissionsUnread
	}
	return s.QuestionsUnread
}

// Counts are the figures the screen shows: of one session (State.Counts:
// its tool calls, children, the sessions running below it and its
// subtree's tokens and cost), or of a set of sessions (the header's: how
// many, and how many run, wait on the person or ended badly).
type Counts struct {
	// The session's tool calls by CallStatus, each in one count: running
	// (or pending), completed, failed (error), aborted, and interrupted
	// (left pending or running in a session that has stopped).
	ToolsRunning, ToolsDone, ToolsFailed, ToolsAborted, ToolsInterrupted int

	Children int
	// Descendants running (busy or retrying) below this session, any
	// depth, and those waiting on the person (a permission or a question),
	// which do not also count as running.
	RunningBelow, WaitingBelow int
	// Tokens and cost summed over the session and all its descendants,
	// and the replies among them that used tokens with no cost reported
	// (Cost leaves them out: see SubtreeCost).
	Tokens, Cost float64
	Unpriced     int

	// Of a set: Sessions counted, and of them how many run (busy or
	// retrying), wait on the person, or failed (failed, interrupted or
	// denied; an abort is not a failure, someone chose it), and how many
	// have a history not read yet (State.HasHistory).
	Sessions, Running, Waiting, Failed, Unread int
}

// MaxGuides is how many ancestors' guides a Row keeps at most: a row's
// guides are a copy of its path, so keeping them all would cost a chain of
// sessions the square of its depth (a hostile server's may be a million
// deep). No screen is wide enough to draw more.
const MaxGuides = 64

// Row is one visible line of the flattened tree.
type Row struct {
	ID string
	// Guides says, of the row's nearest ancestors, at most MaxGuides of
	// them, whether each still has siblings below, for drawing tree
	// guides (│ ├ └): Guides[i] is the ancestor at depth
	// Depth-len(Guides)+i. Last is true when the row is the last child
	// of its parent.
	Guides      []bool
	Depth       int32
	HasChildren bool
	Expanded    bool
	Last        bool
	// Match is true when the row matched the filter itself, false when it
	// is shown only as the ancestor of a match.
	Match bool
}
