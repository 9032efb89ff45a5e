package live

import (
	"context"
	"fmt"
	"strings"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
)

// PlanUndo reads what undoing session id to message to ("" for its first
// message: all it did) would restore, and whose work would go with it.
// It sends nothing that changes the server.
func PlanUndo(ctx context.Context, c *client.Client, id, to string) (task.UndoPlan, error) {
	s, err := lookup(ctx, c, id)
	if err != nil {
		return task.UndoPlan{}, err
	}
	w, err := readWorld(ctx, c, s)
	if err != nil {
		return task.UndoPlan{}, err
	}
	own, err := readHistories(ctx, c, []wire.Session{s})
	if err != nil {
		return task.UndoPlan{}, err
	}
	p := task.UndoPlan{Session: s}
	if p.To, p.Since, err = undoPoint(s.ID, own[s.ID], to); err != nil {
		return task.UndoPlan{}, err
	}
	kids := w.startedSince(s.ID, p.Since)
	h, err := readHistories(ctx, c, append(w.touchedSince(p.Since, s.Directory, s.ID), kids...))
	if err != nil {
		return task.UndoPlan{}, err
	}
	h[s.ID] = own[s.ID]
	for _, k := range kids {
		if first, ok := firstUser(h[k.ID]); ok {
			done := k.Revert != nil && k.Revert.MessageID == first
			p.Steps = append(p.Steps, task.UndoStep{Session: k, To: first, Descendant: true, Done: done})
		}
	}
	p.Steps = append(p.Steps, task.UndoStep{Session: s, To: p.To, Done: s.Revert != nil && s.Revert.MessageID == p.To})
	for _, st := range p.Steps {
		if w.running(st.Session.ID) {
			p.Busy = append(p.Busy, st.Session)
		}
	}
	fillUndoFiles(&p, w, h, rootOf(h, s.Directory))
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

// shortList names sessions for a one-line message: id and title.
func shortList(ss []wire.Session) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = fmt.Sprintf("%s %q", s.ID, oneLine(s.Title))
	}
	return strings.Join(parts, ", ")
}
