package live

import (
	"sort"

	"github.com/octop-dev/octop/internal/wire"
)

// fillFiles lists the files the plan's reverts restore (the patch parts
// of each session from its point on, as the server's revert collects
// them), counts them from the runs' own diffs, and names the other
// sessions that changed them since the span began.
func (p *UndoPlan) fillFiles(w world, h map[string][]spanMsg, root string) {
	wt := worktree{root: root}
	byPath := map[string]*UndoFile{}
	for _, st := range p.Steps {
		for _, m := range from(h[st.Session.ID], st.To) {
			for _, part := range m.Parts {
				if part.Type != "patch" {
					continue
				}
				for _, f := range part.Files {
					addBy(byPath, wt.rel(f, m.Info.Path.Cwd), st.Session.ID)
				}
			}
		}
	}
	for _, st := range p.Steps {
		count(byPath, runs(h[st.Session.ID], st.To))
	}
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
func addBy(byPath map[string]*UndoFile, file, id string) {
	f := byPath[file]
	if f == nil {
		f = &UndoFile{Path: file}
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

// runs are the user messages whose runs the undo takes back: the one to
// is or falls in, and every later one.
func runs(msgs []spanMsg, to string) []spanMsg {
	start := -1
	for i, m := range msgs {
		if m.Info.Role == "user" {
			start = i
		}
		if m.Info.ID == to {
			break
		}
	}
	var out []spanMsg
	for _, m := range msgs[max(start, 0):] {
		if m.Info.Role == "user" {
			out = append(out, m)
		}
	}
	return out
}

// count takes a session's runs' diffs for the files the undo restores.
// Snapshots cover the whole worktree, so a parent's run and its child's
// both count a file the child wrote: each file keeps the largest count
// one session gives it rather than their sum.
func count(byPath map[string]*UndoFile, users []spanMsg) {
	sum := map[string]*wire.FileDiff{}
	patch := map[string]string{}
	for _, u := range users {
		if u.Info.Summary == nil {
			continue
		}
		for _, d := range u.Info.Summary.Diffs {
			s := sum[d.File]
			if s == nil {
				s = &wire.FileDiff{File: d.File}
				sum[d.File] = s
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
		if f == nil || (f.Counted && f.Additions+f.Deletions >= int(s.Additions+s.Deletions)) {
			continue
		}
		f.Additions, f.Deletions, f.Status, f.Patch, f.Counted = int(s.Additions), int(s.Deletions), s.Status, patch[path], true
	}
}

// sortedFiles are the files by path.
func sortedFiles(byPath map[string]*UndoFile) []*UndoFile {
	out := make([]*UndoFile, 0, len(byPath))
	for _, f := range byPath {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
