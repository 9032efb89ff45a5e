package live

import (
	"context"
	"fmt"
	"strings"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
)

// Undo carries out what plan previewed. It reads the plan again first,
// and sends nothing if a session of the undo now runs (task.ErrBusy), if
// the work of a session not named in consent would go (task.ErrOthersWork:
// consent is the person's yes to losing those sessions' changes), or if
// the undo would now restore a file the preview did not show. Then it
// reverts each session in the plan's order and checks the server's
// account against the preview. If a revert fails it stops there: the
// result holds the reverts made.
func Undo(ctx context.Context, c *client.Client, plan task.UndoPlan, consent []string) (task.UndoResult, error) {
	now, err := PlanUndo(ctx, c, plan.Session.ID, plan.To)
	if err != nil {
		return task.UndoResult{}, err
	}
	if err := stillAgreed(now.Busy, now.Others, consent); err != nil {
		return task.UndoResult{}, err
	}
	if extra := newFiles(plan.Files, now.Files); len(extra) > 0 {
		return task.UndoResult{}, task.NewError(task.ErrOthersWork, fmt.Sprintf(
			"the undo of %s would now also restore %s, which the preview did not show; nothing was changed: look again", plan.Session.ID, strings.Join(extra, ", ")), nil)
	}
	res := task.UndoResult{Plan: now}
	var stats [][]wire.DiffStat
	for _, st := range now.Steps {
		if st.Done {
			continue
		}
		s, err := c.Revert(ctx, st.Session.ID, client.RevertRequest{MessageID: st.To})
		if err != nil {
			return res, revertError("undo", st.Session.ID, err)
		}
		if s.Revert == nil {
			return res, fmt.Errorf("undo %s: the server undid nothing (message %s unknown to it?)", st.Session.ID, st.To)
		}
		res.Reverted = append(res.Reverted, s)
		d, ok := wire.DiffStats(s.Revert.Diff)
		res.Check.Unreadable = res.Check.Unreadable || !ok
		stats = append(stats, d)
	}
	res.Restored, res.Touched = mergeStats(stats)
	res.Check = checkUndo(now.Files, res.Restored, res.Touched, res.Check.Unreadable)
	return res, nil
}

// stillAgreed refuses an undo or a redo whose sessions run, or that
// would take the work of a session the person did not name.
func stillAgreed(busy, others []wire.Session, consent []string) error {
	if len(busy) > 0 {
		return task.NewError(task.ErrBusy, fmt.Sprintf("%s still running: stop it first (octop abort --tree %s); nothing was changed",
			shortList(busy), busy[0].ID), nil)
	}
	ok := map[string]bool{}
	for _, id := range consent {
		ok[id] = true
	}
	var lost []wire.Session
	for _, o := range others {
		if !ok[o.ID] {
			lost = append(lost, o)
		}
	}
	if len(lost) > 0 {
		return task.NewError(task.ErrOthersWork, fmt.Sprintf("this would also undo changes made by %s; nothing was changed", shortList(lost)), nil)
	}
	return nil
}

// newFiles are the paths of now that were not in then.
func newFiles(then, now []task.UndoFile) []string {
	had := map[string]bool{}
	for _, f := range then {
		had[f.Path] = true
	}
	var out []string
	for _, f := range now {
		if !had[f.Path] {
			out = append(out, f.Path)
		}
	}
	return out
}

// revertError names the call that failed, and gives a busy session's
// refusal the kind task.ErrBusy.
func revertError(what, id string, err error) error {
	msg := fmt.Sprintf("%s %s: %v", what, id, err)
	switch {
	case client.IsBusy(err):
		return task.NewError(task.ErrBusy, fmt.Sprintf("%s %s: the session is running; stop it first (octop abort %s)", what, id, id), err)
	case client.IsNotFound(err):
		// The session was there a moment ago: the server lacks the call.
		return task.NewError(task.ErrNoSession, fmt.Sprintf("%s %s: this server has no %s endpoint (or the session was just deleted)",
			what, id, map[string]string{"undo": "revert", "redo": "unrevert"}[what]), err)
	}
	return fmt.Errorf("%s", msg)
}

// mergeStats joins the diffs of reverts made one after another: a file
// several of them changed (a child's revert took some of its lines, the
// parent's the rest, when the server kept no record of the child's first
// step) adds up their lines, and is deleted if one of them deleted it.
func mergeStats(all [][]wire.DiffStat) ([]wire.DiffStat, map[string]int) {
	var out []wire.DiffStat
	at := map[string]int{}
	touched := map[string]int{}
	for _, stats := range all {
		for _, s := range stats {
			touched[s.Path]++
			i, ok := at[s.Path]
			if !ok {
				at[s.Path] = len(out)
				out = append(out, s)
				continue
			}
			out[i].Additions += s.Additions
			out[i].Deletions += s.Deletions
			if s.Status == "deleted" {
				out[i].Status = s.Status
			}
		}
	}
	return out, touched
}

// checkUndo compares the server's account of the reverts with the
// preview: the files must be the same; where one revert alone changed a
// file, it must have taken out the lines the work added and put back
// those it removed.
func checkUndo(files []task.UndoFile, restored []wire.DiffStat, touched map[string]int, unreadable bool) task.Check {
	c := task.Check{Unreadable: unreadable}
	got := map[string]wire.DiffStat{}
	for _, s := range restored {
		got[s.Path] = s
	}
	for _, f := range files {
		s, ok := got[f.Path]
		switch {
		case !ok && (!f.Counted || f.Additions+f.Deletions != 0):
			c.Missing = append(c.Missing, f.Path)
		case ok && f.Counted && touched[f.Path] == 1 && (s.Deletions != f.Additions || s.Additions != f.Deletions):
			c.Counts = append(c.Counts, fmt.Sprintf("%s: -%d +%d, previewed -%d +%d", f.Path, s.Deletions, s.Additions, f.Additions, f.Deletions))
		}
		delete(got, f.Path)
	}
	for _, s := range restored {
		if _, left := got[s.Path]; left {
			c.Extra = append(c.Extra, s.Path)
		}
	}
	return c
}
