// Package diff gathers the files a session changed from its user
// messages' summaries and turns each into a unified diff a view can colour
// line by line. It is pure.
//
// OpenCode keeps changes per user message (info.summary.diffs, the same as
// GET /session/{id}/diff?messageID=…); the session-level diff comes back
// empty on 1.18.33 and 1.1.65. 1.18.x sends each file's unified patch,
// 1.1.x the whole file before and after, which go-udiff turns into one.
package diff

import (
	"sort"
	"strings"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/format"
)

// File is one changed file with its counts over every run that touched it.
type File struct {
	Path      string
	Status    string // added, deleted, modified (the latest run's word)
	Additions int
	Deletions int
	// Patch is the unified diff; one per run that touched the file, in
	// order, when several did.
	Patch string
}

// Files lists the files the session's user messages changed, by path.
func Files(msgs []wire.MessageWithParts) []File {
	byPath := map[string]*File{}
	for _, m := range msgs {
		if m.Info.Role != "user" || m.Info.Summary == nil {
			continue
		}
		for _, d := range m.Info.Summary.Diffs {
			f := byPath[d.File]
			if f == nil {
				f = &File{Path: d.File}
				byPath[d.File] = f
			}
			if d.Status != "" {
				f.Status = d.Status
			}
			f.Additions += int(d.Additions)
			f.Deletions += int(d.Deletions)
			f.Patch += d.Unified()
		}
	}
	out := make([]File, 0, len(byPath))
	for _, f := range byPath {
		out = append(out, *f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Totals adds up the counts of files.
func Totals(files []File) (additions, deletions int) {
	for _, f := range files {
		additions += f.Additions
		deletions += f.Deletions
	}
	return additions, deletions
}

// LineKind says how to colour a diff line.
type LineKind int

// Line kinds of a unified diff.
const (
	Context LineKind = iota
	Added
	Removed
	Hunk   // @@ -a,b +c,d @@
	Header // ---, +++, Index:, ===, \ No newline
)

// Line is one line of a patch, tab-expanded, with its kind.
type Line struct {
	Kind LineKind
	Text string
}

// Lines splits a patch into lines and tells each one's kind. A line is
// shown as text (format.Text): the file's own escape sequences and
// control characters (a carriage return, a bell) show as their pictures,
// so a diff cannot move the cursor or restyle the screen, and invalid
// UTF-8 becomes U+FFFD.
func Lines(patch string) []Line {
	if patch == "" {
		return nil
	}
	raw := strings.Split(strings.TrimSuffix(patch, "\n"), "\n")
	out := make([]Line, 0, len(raw))
	for _, l := range raw {
		l = format.Text(strings.TrimRight(l, "\r"))
		out = append(out, Line{Kind: kindOf(l), Text: l})
	}
	return out
}

func kindOf(l string) LineKind {
	switch {
	case strings.HasPrefix(l, "@@"):
		return Hunk
	case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "Index:"),
		strings.HasPrefix(l, "==="), strings.HasPrefix(l, `\`):
		return Header
	case strings.HasPrefix(l, "+"):
		return Added
	case strings.HasPrefix(l, "-"):
		return Removed
	}
	return Context
}
