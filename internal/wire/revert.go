package wire

import (
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// Revert is a session's revert field (GET /session/{id}, session.updated,
// the answer of POST /session/{id}/revert): the session's messages from
// MessageID on are undone and hidden until an unrevert brings them back or
// the session's next prompt makes it final. Snapshot is the worktree just
// before the revert (what an unrevert writes back), Diff the git diff from
// it to the worktree after the revert: what the revert changed.
type Revert struct {
	MessageID string `json:"messageID"`
	PartID    string `json:"partID,omitempty"`
	Snapshot  string `json:"snapshot,omitempty"`
	Diff      string `json:"diff,omitempty"`
}

// DiffStat is one file of a git diff: its path, the lines the diff adds
// and removes, and whether it creates or deletes the file.
type DiffStat struct {
	Path      string `json:"path"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	Status    string `json:"status"` // added, deleted, modified
}

// DiffStats reads a git diff (a Revert's Diff) file by file. What cannot
// be read past a malformed part is left out; ok says all of it was read.
func DiffStats(diff string) (stats []DiffStat, ok bool) {
	if strings.TrimSpace(diff) == "" {
		return nil, true
	}
	if !strings.HasSuffix(diff, "\n") {
		diff += "\n" // the server leaves the last line unended
	}
	files, _, err := gitdiff.Parse(strings.NewReader(diff))
	for _, f := range files {
		st := DiffStat{Path: f.NewName, Status: "modified"}
		switch {
		case f.IsDelete:
			st.Path, st.Status = f.OldName, "deleted"
		case f.IsNew:
			st.Status = "added"
		}
		for _, frag := range f.TextFragments {
			st.Additions += int(frag.LinesAdded)
			st.Deletions += int(frag.LinesDeleted)
		}
		stats = append(stats, st)
	}
	return stats, err == nil
}
