package task

import (
	"strings"

	"github.com/octop-dev/octop/internal/wire"
)

// The undo and redo vocabulary: what package live's PlanUndo, Undo,
// PlanRedo and Redo read and did, which the screen's rooms and the
// subcommands show.

// UndoPlan is what undoing a session would do, read from the server with
// nothing changed: the preview a person confirms.
//
// OpenCode's revert restores every file a session's steps saw change from
// a message on, whoever changed it (its snapshots cover the whole
// worktree), and none of a background child's. So the plan reverts the
// session's descendants started since that message too, each to its first
// message, the latest started first and the session last: each revert
// then restores the files to their state before the span.
type UndoPlan struct {
	Session wire.Session
	// To is the message the session is undone to: its changes from
	// there on go. Since is when it was sent.
	To    string
	Since int64
	// Steps are the reverts to send, in order.
	Steps []UndoStep
	// Files is every file the reverts would restore, by path.
	Files []UndoFile
	// Unrecorded are files the plan's own sessions wrote with a file
	// tool (write, edit, patch) in the span, of which the server kept no
	// snapshot (OpenCode 1.1 may leave a step unrecorded): the reverts
	// cannot restore them, and the preview says so instead of "no file".
	Unrecorded []string
	// Others are the sessions outside the undo whose changes to those
	// files would go too (see UndoFile.AlsoChangedBy), and Busy the
	// sessions of the undo still running, which the server would refuse.
	Others []wire.Session
	Busy   []wire.Session
}

// UndoStep is one revert of a plan: Session back to message To.
// Descendant marks a session below the one undone; Done one already
// undone to that message, to which nothing is sent.
type UndoStep struct {
	Session    wire.Session
	To         string
	Descendant bool
	Done       bool
}

// UndoFile is one file an undo restores. Additions and Deletions are the
// lines the undone work added and removed, as the server's own diffs of
// those runs count them (Counted false: they did not count it); Patch is
// that diff. By are the sessions of the undo whose steps saw it change;
// AlsoChangedBy the other sessions whose changes to it would go too.
type UndoFile struct {
	Path          string   `json:"path"`
	Status        string   `json:"status,omitempty"`
	Additions     int      `json:"additions"`
	Deletions     int      `json:"deletions"`
	Counted       bool     `json:"counted"`
	Patch         string   `json:"-"`
	By            []string `json:"by"`
	AlsoChangedBy []Change `json:"also_changed_by"`
}

// Mine says whether id is one of the plan's sessions.
func (p UndoPlan) Mine(id string) bool {
	for _, s := range p.Steps {
		if s.Session.ID == id {
			return true
		}
	}
	return false
}

// OtherIDs are the ids of Others.
func (p UndoPlan) OtherIDs() []string { return sessionIDs(p.Others) }

// Change is another session's change to a file that an undo or a redo
// would write over, as far as the sessions' messages tell.
type Change struct {
	SessionID string `json:"session"`
	Title     string `json:"title,omitempty"`
	// Sure says a file tool of that session (write, edit, patch) named
	// the file. Otherwise it may have changed it: it ran a command that
	// names the file, or one of its steps saw the file change while no
	// session's call explains it.
	Sure bool   `json:"sure"`
	How  string `json:"how"`
}

// UndoResult is what an undo did: the sessions it reverted, in order, and
// what the server says the reverts changed, checked against the preview.
type UndoResult struct {
	Plan     UndoPlan
	Reverted []wire.Session
	// Restored is the server's own account, file by file: the lines the
	// reverts added back and took out.
	Restored []wire.DiffStat
	// Touched says how many of the reverts changed each file: their
	// lines add up in Restored, and where several did, the sum is not
	// the file's net change (one may have put back lines the next took
	// out), so the check compares only which files changed.
	Touched map[string]int
	Check   Check
}

// Check is how the server's account of a revert or an unrevert compares
// with the preview. All empty (OK) means they agree.
type Check struct {
	// Missing are previewed files the server did not report changing;
	// Extra are files it reported that the preview did not list; Counts
	// are files whose lines differ from the preview's ("path: …").
	Missing, Extra, Counts []string
	// Unreadable says part of the server's diff could not be read.
	Unreadable bool
}

// OK says the server's account agrees with the preview.
func (c Check) OK() bool {
	return len(c.Missing)+len(c.Extra)+len(c.Counts) == 0 && !c.Unreadable
}

// String says in one line how they differ ("" when they agree).
func (c Check) String() string {
	var parts []string
	if len(c.Missing) > 0 {
		parts = append(parts, "not restored: "+strings.Join(c.Missing, ", "))
	}
	if len(c.Extra) > 0 {
		parts = append(parts, "also changed, not in the preview: "+strings.Join(c.Extra, ", "))
	}
	if len(c.Counts) > 0 {
		parts = append(parts, "other lines than previewed: "+strings.Join(c.Counts, ", "))
	}
	if c.Unreadable {
		parts = append(parts, "part of the server's diff could not be read")
	}
	return strings.Join(parts, "; ")
}

// RedoPlan is what redoing a session would do: the unreverts to send and
// what they bring back, with nothing changed.
//
// An unrevert writes the whole worktree snapshot taken at its revert back
// over whatever changed since, so reverts made one after another are
// undone in the reverse order (the latest first: the server moves a
// session's time.updated when it reverts it), and the last one writes
// back the worktree as it was before the undo. Whatever another session
// changed since the undo would go: those files are listed too.
type RedoPlan struct {
	Session wire.Session
	// Steps are the sessions to unrevert, in order: the session and its
	// undone descendants.
	Steps []wire.Session
	// Since is when the earliest of them was undone.
	Since int64
	// Files: for each, Additions are the lines the redo brings back and
	// Deletions those it takes out again (from the undo's own diff);
	// AlsoChangedBy the other sessions whose changes since would go.
	Files        []UndoFile
	Others, Busy []wire.Session
}

// OtherIDs are the ids of Others.
func (p RedoPlan) OtherIDs() []string { return sessionIDs(p.Others) }

// RedoResult is what a redo did: the sessions unreverted, in order.
type RedoResult struct {
	Plan       RedoPlan
	Unreverted []wire.Session
}

// sessionIDs are the sessions' ids.
func sessionIDs(ss []wire.Session) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.ID
	}
	return out
}

// Mine says whether id is one of the redo's sessions.
func (p RedoPlan) Mine(id string) bool {
	for _, s := range p.Steps {
		if s.ID == id {
			return true
		}
	}
	return false
}

// UndoPlanRequest reads what undoing session ID to message To ("": its
// first) would do: the preview the u key shows.
type UndoPlanRequest struct{ ID, To string }

// UndoPlanReply answers UndoPlanRequest.
type UndoPlanReply struct {
	Plan UndoPlan
	Err  error
}

// UndoRequest carries Plan out; Consent names the other sessions the
// person agreed may lose their work.
type UndoRequest struct {
	Plan    UndoPlan
	Consent []string
}

// UndoReply answers UndoRequest.
type UndoReply struct {
	Result UndoResult
	Err    error
}

// RedoPlanRequest reads what redoing session ID would do.
type RedoPlanRequest struct{ ID string }

// RedoPlanReply answers RedoPlanRequest.
type RedoPlanReply struct {
	Plan RedoPlan
	Err  error
}

// RedoRequest carries Plan out; Consent as UndoRequest's.
type RedoRequest struct {
	Plan    RedoPlan
	Consent []string
}

// RedoReply answers RedoRequest.
type RedoReply struct {
	Result RedoResult
	Err    error
}

// Changes: a plan only reads; an undo and a redo change the worktree.
func (UndoPlanRequest) Changes() bool { return false }
func (UndoRequest) Changes() bool     { return true }
func (RedoPlanRequest) Changes() bool { return false }
func (RedoRequest) Changes() bool     { return true }

// Refused: each request's reply carrying err.
func (UndoPlanRequest) Refused(err error) Reply { return UndoPlanReply{Err: err} }
func (UndoRequest) Refused(err error) Reply     { return UndoReply{Err: err} }
func (RedoPlanRequest) Refused(err error) Reply { return RedoPlanReply{Err: err} }
func (RedoRequest) Refused(err error) Reply     { return RedoReply{Err: err} }

func (UndoPlanReply) reply() {}
func (UndoReply) reply()     {}
func (RedoPlanReply) reply() {}
func (RedoReply) reply()     {}
