package live

import (
	"encoding/json"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/octop-dev/octop/internal/wire"
)

// spanMsg is what undo and redo read of a message (task.ReadHistories
// decodes into it): its times and paths, its run's summary, and the parts
// that say which files changed: patch parts and file tools' calls.
type spanMsg struct {
	Info struct {
		ID        string               `json:"id"`
		SessionID string               `json:"sessionID"`
		Role      string               `json:"role"`
		Time      wire.MessageTime     `json:"time"`
		Summary   *wire.MessageSummary `json:"summary,omitempty"`
		Path      struct {
			Cwd  string `json:"cwd"`
			Root string `json:"root"`
		} `json:"path"`
	} `json:"info"`
	Parts []spanPart `json:"parts"`
}

// spanPart is a patch part (Hash, Files: the step's snapshot and the
// files of the worktree that changed during the step, whoever changed
// them) or a tool call.
type spanPart struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	Tool string `json:"tool,omitempty"`
	Hash string `json:"hash,omitempty"`
	// Snapshot is a step-start part's: the worktree when the step began.
	Snapshot string   `json:"snapshot,omitempty"`
	Files    []string `json:"files,omitempty"`
	State    *struct {
		Status   string          `json:"status,omitempty"`
		Input    json.RawMessage `json:"input,omitempty"`
		Metadata json.RawMessage `json:"metadata,omitempty"`
		Time     wire.ToolTime   `json:"time"`
	} `json:"state,omitempty"`
}

// worktree turns the paths a session's messages name into paths relative
// to the project's root, the form the server's diffs use.
type worktree struct{ root string }

// rel is p relative to the root; p may be absolute, or relative to cwd
// (a tool's input). A path outside the root stays as it is.
func (w worktree) rel(p, cwd string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		if cwd == "" {
			return path.Clean(filepath.ToSlash(p))
		}
		p = filepath.Join(cwd, p)
	}
	if w.root != "" {
		if r, err := filepath.Rel(w.root, p); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
	}
	return filepath.ToSlash(filepath.Clean(p))
}

// fileTools are the tools that write the files their input names; a
// call of one of them is the strongest evidence of who changed a file.
var fileTools = map[string]bool{"write": true, "edit": true, "multiedit": true, "patch": true, "apply_patch": true}

// patchHeader finds the files an apply_patch text adds, updates, deletes
// or moves to.
var patchHeader = regexp.MustCompile(`(?m)^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$`)

// toolFiles are the files a file tool's call names, relative to the root.
func (w worktree) toolFiles(p spanPart, cwd string) []string {
	var in struct {
		FilePath  string `json:"filePath"`
		Path      string `json:"path"`
		PatchText string `json:"patchText"`
	}
	var meta struct {
		FilePath string `json:"filepath"`
	}
	_ = json.Unmarshal(p.State.Input, &in)
	_ = json.Unmarshal(p.State.Metadata, &meta)
	seen := map[string]bool{}
	var out []string
	add := func(f string) {
		if f = w.rel(strings.TrimSpace(f), cwd); f != "" && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	add(in.FilePath)
	add(in.Path)
	add(meta.FilePath)
	for _, m := range patchHeader.FindAllStringSubmatch(in.PatchText, -1) {
		add(m[1] + m[2])
	}
	return out
}

// command is a bash call's command line, "" for any other tool.
func command(p spanPart) string {
	if p.Tool != "bash" || p.State == nil {
		return ""
	}
	var in struct {
		Command string `json:"command"`
	}
	_ = json.Unmarshal(p.State.Input, &in)
	return in.Command
}

// names says whether a command line mentions file: its path or its
// name. A command that names a file may well change it; one that does
// not is not ruled out (a build, a formatter), but nothing can tell.
func names(cmd, file string) bool {
	return cmd != "" && (strings.Contains(cmd, file) || strings.Contains(cmd, path.Base(file)))
}
