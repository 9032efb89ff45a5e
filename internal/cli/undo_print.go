package cli

import (
	"github.com/octop-dev/octop/internal/task"

	"fmt"
	"io"
	"strings"

	"github.com/octop-dev/octop/internal/wire"
)

// fileJSON is one file of undo's and redo's JSON.
type fileJSON struct {
	Path      string `json:"path"`
	Status    string `json:"status,omitempty"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	// Counted says additions and deletions are exactly what the undo
	// takes back; false: the runs' diffs count them from an earlier
	// snapshot than the one the server restores from (or not at all).
	Counted bool `json:"counted"`
	// AlsoChangedBy are the other sessions whose changes to the file go
	// too; Changes says what each did.
	AlsoChangedBy []string      `json:"also_changed_by"`
	Changes       []task.Change `json:"changes,omitempty"`
	By            []string      `json:"by"`
	Patch         string        `json:"patch,omitempty"`
}

// filesJSON is files as JSON.
func filesJSON(files []task.UndoFile) []fileJSON {
	out := make([]fileJSON, 0, len(files))
	for _, f := range files {
		j := fileJSON{Path: f.Path, Status: f.Status, Additions: f.Additions, Deletions: f.Deletions, Counted: f.Counted,
			AlsoChangedBy: []string{}, Changes: f.AlsoChangedBy, By: f.By, Patch: f.Patch}
		for _, ch := range f.AlsoChangedBy {
			j.AlsoChangedBy = append(j.AlsoChangedBy, ch.SessionID)
		}
		out = append(out, j)
	}
	return out
}

// printFiles lists files, one a line: the path, the lines, and who else
// changed it; then the files the sessions wrote that the server kept no
// snapshot of (task.UndoPlan.Unrecorded), which stay as they are.
func printFiles(w io.Writer, files []task.UndoFile, unrecorded []string) {
	for _, f := range unrecorded {
		fmt.Fprintf(w, "! not restored: %s (written by the undone steps, but the server kept no snapshot of it)\n", squashSpaces(f))
	}
	if len(files) == 0 {
		if len(unrecorded) == 0 {
			fmt.Fprintln(w, "files: none (the steps undone changed no file)")
		} else {
			fmt.Fprintln(w, "files: none the server can restore")
		}
		return
	}
	fmt.Fprintf(w, "files (%d):\n", len(files))
	for _, f := range files {
		lines := "lines not counted"
		switch {
		case f.Counted:
			lines = fmt.Sprintf("+%d -%d", f.Additions, f.Deletions)
		case f.Additions+f.Deletions > 0:
			lines = fmt.Sprintf("~+%d -%d (the run's diff; the server's records of the first steps are missing, it may restore less)", f.Additions, f.Deletions)
		}
		fmt.Fprintf(w, "  %s  %s\n", f.Path, lines)
		for _, ch := range f.AlsoChangedBy {
			fmt.Fprintf(w, "    ! also changed by %s %q: %s\n", ch.SessionID, squashSpaces(ch.Title), changeWords(ch))
		}
	}
}

// changeWords says how sure octop is that a session changed a file.
func changeWords(ch task.Change) string {
	if ch.Sure {
		return "its " + ch.How + " call wrote it"
	}
	return "it may have: " + ch.How
}

// sessionLine is "ID "title"".
func sessionLine(s wire.Session) string {
	return fmt.Sprintf("%s %q", s.ID, squashSpaces(s.Title))
}

// sessionList names sessions on one line.
func sessionList(ss []wire.Session) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = sessionLine(s)
	}
	return strings.Join(parts, ", ")
}

// undoJSON is `octop undo --json`: the preview, and once done what was
// undone.
type undoJSON struct {
	Session  string            `json:"session"`
	Title    string            `json:"title"`
	To       string            `json:"to"`
	Sessions []undoSessionJSON `json:"sessions"`
	Files    []fileJSON        `json:"files"`
	// Unrecorded are files the undone steps wrote that the server kept
	// no snapshot of: the undo leaves them as they are.
	Unrecorded []string        `json:"unrecorded"`
	Others     []string        `json:"others"`
	Busy       []string        `json:"busy"`
	Undone     bool            `json:"undone"`
	Restored   []wire.DiffStat `json:"restored,omitempty"`
	Differs    string          `json:"differs,omitempty"`
}

// undoSessionJSON is one revert of the plan.
type undoSessionJSON struct {
	ID         string `json:"id"`
	Title      string `json:"title"`
	To         string `json:"to"`
	Descendant bool   `json:"descendant"`
	Done       bool   `json:"already_undone"`
}

// undoJSONOf is the plan, and the result when there is one.
func undoJSONOf(p task.UndoPlan, r *task.UndoResult) undoJSON {
	j := undoJSON{Session: p.Session.ID, Title: p.Session.Title, To: p.To, Files: filesJSON(p.Files),
		Unrecorded: nonNilIDs(p.Unrecorded), Others: nonNilIDs(p.OtherIDs()), Busy: []string{}}
	for _, st := range p.Steps {
		j.Sessions = append(j.Sessions, undoSessionJSON{ID: st.Session.ID, Title: st.Session.Title, To: st.To, Descendant: st.Descendant, Done: st.Done})
	}
	for _, b := range p.Busy {
		j.Busy = append(j.Busy, b.ID)
	}
	if r != nil {
		j.Undone = len(r.Reverted) > 0
		j.Restored = r.Restored
		j.Differs = r.Check.String()
	}
	return j
}

// nonNilIDs is ids, [] for none.
func nonNilIDs(ids []string) []string {
	if ids == nil {
		return []string{}
	}
	return ids
}

// printJSONCode prints v as JSON and returns the exit code for it.
func (c *command) printJSONCode(v any) int {
	if err := printJSON(c.stdio.out, v); err != nil {
		return c.fail(err)
	}
	return codeOK
}
