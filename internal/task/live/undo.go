package live

import (
	"context"
	"fmt"
	"strings"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
)

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

// PlanUndo reads what undoing session id to message to ("" for its first
// message: all it did) would restore, and whose work would go with it.
// It sends nothing that changes the server.
func PlanUndo(ctx context.Context, c *client.Client, id, to string) (UndoPlan, error) {
	s, err := lookup(ctx, c, id)
	if err != nil {
		return UndoPlan{}, err
	}
	w, err := readWorld(ctx, c, s)
	if err != nil {
		return UndoPlan{}, err
	}
	own, err := readHistories(ctx, c, []wire.Session{s})
	if err != nil {
		return UndoPlan{}, err
	}
	p := UndoPlan{Session: s}
	if p.To, p.Since, err = undoPoint(s.ID, own[s.ID], to); err != nil {
		return UndoPlan{}, err
	}
	kids := w.startedSince(s.ID, p.Since)
	h, err := readHistories(ctx, c, append(w.touchedSince(p.Since, s.Directory, s.ID), kids...))
	if err != nil {
		return UndoPlan{}, err
	}
	h[s.ID] = own[s.ID]
	for _, k := range kids {
		if first, ok := firstUser(h[k.ID]); ok {
			done := k.Revert != nil && k.Revert.MessageID == first
			p.Steps = append(p.Steps, UndoStep{Session: k, To: first, Descendant: true, Done: done})
		}
	}
	p.Steps = append(p.Steps, UndoStep{Session: s, To: p.To, Done: s.Revert != nil && s.Revert.MessageID == p.To})
	for _, st := range p.Steps {
		if w.running(st.Session.ID) {
			p.Busy = append(p.Busy, st.Session)
		}
	}
	p.fillFiles(w, h, rootOf(h, s.Directory))
	return p, nil
}

// undoPoint checks to against the session's messages (defaulting to the
// first) and returns it with its time.
func undoPoint(id string, msgs []spanMsg, to string) (string, int64, error) {
	if to != "" && !client.ValidMessageID(to) {
		return "", 0, task.NewError(task.ErrInvalid, fmt.Sprintf("%q is not a message id (they look like msg_…)", to), nil)
	}
	for _, m := range msgs {
		if to == "" && m.Info.Role == "user" || m.Info.ID == to {
			return m.Info.ID, m.Info.Time.Created, nil
		}
	}
	if to == "" {
		return "", 0, task.NewError(task.ErrInvalid, fmt.Sprintf("%s has no messages; nothing to undo", id), nil)
	}
	return "", 0, task.NewError(task.ErrInvalid, fmt.Sprintf("%s is not a message of %s (octop log %s --json lists them)", to, id, id), nil)
}

// firstUser is the id of the first user message of msgs.
func firstUser(msgs []spanMsg) (string, bool) {
	for _, m := range msgs {
		if m.Info.Role == "user" {
			return m.Info.ID, true
		}
	}
	return "", false
}

// rootOf is the worktree's root as the messages name it, else dir.
func rootOf(h map[string][]spanMsg, dir string) string {
	for _, msgs := range h {
		for _, m := range msgs {
			if m.Info.Path.Root != "" {
				return m.Info.Path.Root
			}
		}
	}
	return dir
}

// sessionIDs are the sessions' ids.
func sessionIDs(ss []wire.Session) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.ID
	}
	return out
}

// shortList names sessions for a one-line message: id and title.
func shortList(ss []wire.Session) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = fmt.Sprintf("%s %q", s.ID, oneLine(s.Title))
	}
	return strings.Join(parts, ", ")
}
