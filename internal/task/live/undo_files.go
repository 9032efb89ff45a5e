package live

import (
	"github.com/octop-dev/octop/internal/task"

	"sort"

	"github.com/octop-dev/octop/internal/wire"
)

// fillFiles lists the files the plan's reverts restore (the patch parts
// of each session from its point on, as the server's revert collects
// them), counts them from the runs' own diffs, and names the other
// sessions that changed them since the span began.
func fillUndoFiles(p *task.UndoPlan, w world, h map[string][]spanMsg, root string) {
	wt := worktree{root: root}
	byPath := map[string]*task.UndoFile{}
	for _, st := range p.Steps {
		// The server restores each file from the first patch naming it.
		restoreAt := map[string]string{}
		for _, m := range from(h[st.Session.ID], st.To) {
			for _, part := range m.Parts {
				if part.Type != "patch" {
					continue
				}
				for _, f := range part.Files {
					f = wt.rel(f, m.Info.Path.Cwd)
					addBy(byPath, f, st.Session.ID)
					if _, ok := restoreAt[f]; !ok {
						restoreAt[f] = part.Hash
					}
				}
			}
		}
		count(byPath, runs(h[st.Session.ID], st.To), restoreAt)
	}
	p.Unrecorded = unrecorded(p.Steps, h, wt, byPath)
	files := map[string]bool{}
	for f := range byPath {
		files[f] = true
	}
	ev := gather(h, root, p.Since, files)
	up := w.ancestors(p.Session.ID)
	changes := attribute(ev, files, p.Mine, func(id string) bool { return up[id] })
	seen := map[string]bool{}
	for _, f := range sortedFiles(byPath) {
		f.AlsoChangedBy = changes[f.Path]
		for i, ch := range f.AlsoChangedBy {
			other := w.sessions[ch.SessionID]
			f.AlsoChangedBy[i].Title = other.Title
			if !seen[ch.SessionID] {
				seen[ch.SessionID] = true
				p.Others = append(p.Others, other)
			}
		}
		p.Files = append(p.Files, *f)
	}
}

// addBy notes that session id's steps saw file change.
func addBy(byPath map[string]*task.UndoFile, file, id string) {
	f := byPath[file]
	if f == nil {
		f = &task.UndoFile{Path: file}
		byPath[file] = f
	}
	for _, b := range f.By {
		if b == id {
			return
		}
	}
	f.By = append(f.By, id)
}

// from are the messages from the one with id to on.
func from(msgs []spanMsg, to string) []spanMsg {
	for i, m := range msgs {
		if m.Info.ID == to {
			return msgs[i:]
		}
	}
	return nil
}

// run is a user message and the snapshot its run began from (its
// first step's).
type run struct {
	user  spanMsg
	start string
}

// runs are the runs the undo takes back: the one to is or falls in, and
// every later one.
func runs(msgs []spanMsg, to string) []run {
	start := 0
	for i, m := range msgs {
		if m.Info.Role == "user" {
			start = i
		}
		if m.Info.ID == to {
			break
		}
	}
	var out []run
	for _, m := range msgs[start:] {
		if m.Info.Role == "user" {
			out = append(out, run{user: m})
			continue
		}
		for _, p := range m.Parts {
			if n := len(out); n > 0 && out[n-1].start == "" && p.Type == "step-start" {
				out[n-1].start = p.Snapshot
			}
		}
	}
	return out
}

// count takes a session's runs' diffs for the files the undo restores.
// A run's diff counts from the snapshot the run began with; the server
// restores a file from the first patch naming it, so the count is exact
// (Counted) only where the two are the same snapshot: 1.1.65 leaves some
// steps without a patch, and restores less. Snapshots cover the whole
// worktree, so a parent's run and its child's both count a file the
// child wrote: each file keeps the largest count one session gives it
// rather than their sum.
func count(byPath map[string]*task.UndoFile, runs []run, restoreAt map[string]string) {
	sum := map[string]*wire.FileDiff{}
	patch := map[string]string{}
	exact := map[string]bool{}
	for _, r := range runs {
		if r.user.Info.Summary == nil {
			continue
		}
		for _, d := range r.user.Info.Summary.Diffs {
			s := sum[d.File]
			if s == nil {
				s = &wire.FileDiff{File: d.File}
				sum[d.File] = s
				exact[d.File] = r.start != "" && r.start == restoreAt[d.File]
			}
			s.Additions += d.Additions
			s.Deletions += d.Deletions
			if d.Status != "" {
				s.Status = d.Status
			}
			patch[d.File] += d.Unified()
		}
	}
	for path, s := range sum {
		f := byPath[path]
		if f == nil || f.Additions+f.Deletions >= int(s.Additions+s.Deletions) && f.Status != "" {
			continue
		}
		f.Additions, f.Deletions, f.Status, f.Patch, f.Counted = int(s.Additions), int(s.Deletions), s.Status, patch[path], exact[path]
	}
}

// sortedFiles are the files by path.
func sortedFiles(byPath map[string]*task.UndoFile) []*task.UndoFile {
	out := make([]*task.UndoFile, 0, len(byPath))
	for _, f := range byPath {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// unrecorded are the files the steps' sessions wrote with a file tool
// from their undo point on that no patch of theirs names, sorted: the
// server kept no snapshot of them, so the reverts cannot restore them.
func unrecorded(steps []task.UndoStep, h map[string][]spanMsg, wt worktree, restored map[string]*task.UndoFile) []string {
	seen := map[string]bool{}
	var out []string
	for _, st := range steps {
		for _, m := range from(h[st.Session.ID], st.To) {
			for _, part := range m.Parts {
				if part.Type != "tool" || part.State == nil || !fileTools[part.Tool] || part.State.Status != wire.ToolCompleted {
					continue
				}
				for _, f := range wt.toolFiles(part, m.Info.Path.Cwd) {
					if restored[f] == nil && !seen[f] {
						seen[f] = true
						out = append(out, f)
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}
