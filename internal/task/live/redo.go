package live

import (
	"context"
	"fmt"
	"sort"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
)

// redoMine says whether id is one of the plan's sessions.
func redoMine(p task.RedoPlan, id string) bool {
	for _, s := range p.Steps {
		if s.ID == id {
			return true
		}
	}
	return false
}

// PlanRedo reads what redoing session id would bring back: its undone
// messages and those of its undone descendants. It fails with
// task.ErrNotReverted when the session has nothing undone.
func PlanRedo(ctx context.Context, c *client.Client, id string) (task.RedoPlan, error) {
	s, err := lookup(ctx, c, id)
	if err != nil {
		return task.RedoPlan{}, err
	}
	if s.Revert == nil {
		return task.RedoPlan{}, task.NewError(task.ErrNotReverted, fmt.Sprintf(
			"%s has nothing undone to redo (a new prompt makes an undo final)", s.ID), nil)
	}
	w, err := readWorld(ctx, c, s)
	if err != nil {
		return task.RedoPlan{}, err
	}
	p := task.RedoPlan{Session: s, Steps: []wire.Session{s}, Since: s.Time.Updated}
	for _, d := range w.descendants(s.ID) {
		if d.Revert != nil {
			p.Steps = append(p.Steps, d)
			p.Since = min(p.Since, d.Time.Updated)
		}
	}
	// The latest undone first; the session before its descendants when
	// the times tie, as an undo reverts it last.
	sort.SliceStable(p.Steps, func(i, j int) bool { return p.Steps[i].Time.Updated > p.Steps[j].Time.Updated })
	for _, st := range p.Steps {
		if w.running(st.ID) {
			p.Busy = append(p.Busy, st)
		}
	}
	h, err := readHistories(ctx, c, w.touchedSince(p.Since, s.Directory, ""))
	if err != nil {
		return task.RedoPlan{}, err
	}
	fillRedoFiles(&p, w, h, rootOf(h, s.Directory))
	return p, nil
}

// fillFiles lists what the undo's diffs say comes back, and every file
// another session changed since the undo, which the redo writes over.
func fillRedoFiles(p *task.RedoPlan, w world, h map[string][]spanMsg, root string) {
	byPath := map[string]*task.UndoFile{}
	for _, st := range p.Steps {
		stats, _ := wire.DiffStats(st.Revert.Diff)
		for _, d := range stats {
			addBy(byPath, d.Path, st.ID)
			f := byPath[d.Path]
			if d.Additions+d.Deletions > f.Additions+f.Deletions {
				f.Additions, f.Deletions, f.Counted = d.Deletions, d.Additions, true
			}
		}
	}
	files := map[string]bool{}
	for f := range byPath {
		files[f] = true
	}
	seen := gather(h, root, p.Since, nil)
	for _, st := range seen.steps {
		for _, f := range st.files {
			files[f] = true
		}
	}
	for _, c := range seen.claims {
		files[c.file] = true
	}
	changes := attribute(gather(h, root, p.Since, files), files, func(id string) bool { return redoMine(*p, id) }, func(string) bool { return false })
	named := map[string]bool{}
	for path, cs := range changes {
		if byPath[path] == nil {
			byPath[path] = &task.UndoFile{Path: path}
		}
		for i, ch := range cs {
			cs[i].Title = w.sessions[ch.SessionID].Title
		}
		byPath[path].AlsoChangedBy = cs
	}
	for _, f := range sortedFiles(byPath) {
		for _, ch := range f.AlsoChangedBy {
			if !named[ch.SessionID] {
				named[ch.SessionID] = true
				p.Others = append(p.Others, w.sessions[ch.SessionID])
			}
		}
		p.Files = append(p.Files, *f)
	}
}

// Redo carries out what plan previewed: it reads the plan again, sends
// nothing if one of its sessions runs (task.ErrBusy) or if the changes of
// a session not named in consent would go (task.ErrOthersWork), then
// unreverts each session in order and checks that the server says each
// is no longer undone. If one fails it stops there.
func Redo(ctx context.Context, c *client.Client, plan task.RedoPlan, consent []string) (task.RedoResult, error) {
	now, err := PlanRedo(ctx, c, plan.Session.ID)
	if err != nil {
		return task.RedoResult{}, err
	}
	if err := stillAgreed(now.Busy, now.Others, consent); err != nil {
		return task.RedoResult{}, err
	}
	res := task.RedoResult{Plan: now}
	for _, st := range now.Steps {
		s, err := c.Unrevert(ctx, st.ID)
		if err != nil {
			return res, revertError("redo", st.ID, err)
		}
		if s.Revert != nil {
			return res, fmt.Errorf("redo %s: the server still says its messages from %s are undone", st.ID, s.Revert.MessageID)
		}
		res.Unreverted = append(res.Unreverted, s)
	}
	return res, nil
}
