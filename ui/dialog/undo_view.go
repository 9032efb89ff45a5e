package dialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/format"
)

// UndoKeyMap is the keys of the undo and redo dialogs.
type UndoKeyMap struct {
	Yes, No, Diff, Up, Down key.Binding
}

// DefaultUndoKeyMap returns them: y or enter goes on, n or esc backs
// out, d shows the selected file's diff, j/k pick the file.
func DefaultUndoKeyMap() UndoKeyMap {
	return UndoKeyMap{
		Yes:  key.NewBinding(key.WithKeys("y", "enter"), key.WithHelp("y/enter", "yes")),
		No:   key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "no")),
		Diff: key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "diff")),
		Up:   key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("k", "file up")),
		Down: key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("j", "file down")),
	}
}

// ShortHelp is the preview's hint.
func (k UndoKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Yes, k.Diff, k.Down, k.No} }

// FullHelp is every key.
func (k UndoKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Yes, k.No, k.Diff, k.Up, k.Down}}
}

// verb is "undo" or "redo".
func (d Undo) verb() string {
	if d.redo {
		return "redo"
	}
	return "undo"
}

// View draws the dialog for a w×h screen.
func (d Undo) View(w, h int) string {
	width := Width(w, 96)
	inner := width - 4
	title := fmt.Sprintf("%s %s?", strings.ToUpper(d.verb()[:1])+d.verb()[1:], d.title)
	var lines []string
	hint := Hint(d.keys.ShortHelp()...)
	switch d.stage {
	case stageLoading:
		lines = append(lines, d.st.Busy.Render("reading what the "+d.verb()+" would change…"))
		hint = "esc cancel"
	case stageBusy:
		lines = append(lines, strings.Split(format.Wrap(fmt.Sprintf("%s still running: the server refuses to %s a running session. Abort %s and its subtree's running sessions first?",
			sessionNames(d.busy), d.verb(), d.id), inner), "\n")...)
		hint = "y/enter abort first · n/esc cancel"
	default:
		lines = d.preview(inner)
		switch d.stage {
		case stageOthers:
			lines = append(lines, "")
			what := "This also undoes the work of %s in the files marked !. Their changes go too."
			if d.redo {
				what = "This also writes over what %s changed since the undo, in the files marked !. Those changes go."
			}
			for _, l := range strings.Split(format.Wrap(fmt.Sprintf(what, sessionNames(d.others)), inner), "\n") {
				lines = append(lines, d.st.Ink.Failed.Render(l))
			}
			hint = fmt.Sprintf("y/enter %s their work too · n/esc back", d.verb())
		case stageWorking:
			lines = append(lines, "", d.st.Busy.Render(d.verb()+"ing…"))
			hint = "esc close"
		}
	}
	if d.err != "" {
		lines = append(lines, "", ErrorLine(d.st, inner, d.err))
	}
	return Frame(d.st, width, title, fit(lines, max(h-6, 4)), hint)
}

// preview is the reverts, the files and, on request, a file's diff.
func (d Undo) preview(inner int) []string {
	var lines []string
	lines = append(lines, d.st.Ink.Dim.Render("Sessions, in order:"))
	for _, st := range d.steps {
		role := ""
		if st.Descendant {
			role = d.st.Ink.Dim.Render(" (descendant)")
		}
		lines = append(lines, "  • "+format.OneLine(st.Session.ID)+" "+format.SessionName(st.Session.Title)+role)
	}
	verb := "restores"
	if d.redo {
		verb = "brings back"
	}
	for _, f := range d.unrecorded {
		lines = append(lines, d.st.Ink.Waiting.Render("! not restored: "+format.OneLine(f)+" (the server kept no snapshot of it)"))
	}
	switch {
	case len(d.files) == 0 && len(d.unrecorded) > 0:
		lines = append(lines, d.st.Ink.Dim.Render("It "+verb+" no file the server can restore."))
	case len(d.files) == 0:
		lines = append(lines, d.st.Ink.Dim.Render("It "+verb+" no file (the steps changed none)."))
	default:
		lines = append(lines, d.st.Ink.Dim.Render(fmt.Sprintf("It %s %s:", verb, format.Plural(len(d.files), "file", "files"))))
	}
	for i, f := range d.files {
		lines = append(lines, d.fileLine(i, f, inner)...)
	}
	if d.diff && d.sel < len(d.files) {
		lines = append(lines, d.st.Ink.Dim.Render("── diff of "+format.OneLine(d.files[d.sel].Path)+" ──"))
		lines = append(lines, d.patch(d.files[d.sel].Patch)...)
	}
	return lines
}

// fileLine is one file: its lines, and who else changed it.
func (d Undo) fileLine(i int, f task.UndoFile, inner int) []string {
	mark := "  "
	if i == d.sel {
		mark = "▸ "
	}
	counts := "lines not counted"
	switch {
	case f.Counted:
		counts = fmt.Sprintf("+%d −%d", f.Additions, f.Deletions)
	case f.Additions+f.Deletions > 0:
		counts = fmt.Sprintf("~+%d −%d", f.Additions, f.Deletions)
	}
	out := []string{mark + format.OneLine(f.Path) + "  " + d.st.Ink.Dim.Render(counts)}
	for _, c := range f.AlsoChangedBy {
		how := "it may have: " + c.How
		if c.Sure {
			how = "its " + c.How + " call wrote it"
		}
		out = append(out, d.st.Ink.Failed.Render(trim("    ! also changed by "+format.OneLine(c.SessionID)+" "+format.SessionName(c.Title), inner)),
			d.st.Ink.Failed.Render(trim("      "+format.OneLine(how), inner)))
	}
	return out
}

// patch colours a unified diff's lines.
func (d Undo) patch(p string) []string {
	if p == "" {
		return []string{d.st.Ink.Dim.Render("(the server kept no diff of it)")}
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(p, "\n"), "\n") {
		l = format.OneLine(l)
		switch {
		case strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++"):
			l = d.st.Ink.Done.Render(l)
		case strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---"):
			l = d.st.Ink.Failed.Render(l)
		default:
			l = d.st.Ink.Dim.Render(l)
		}
		out = append(out, l)
	}
	return out
}

// sessionNames names sessions: id and title, as their rows name them.
func sessionNames(ss []wire.Session) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = format.OneLine(fmt.Sprintf("%s %q", s.ID, format.SessionName(s.Title)))
	}
	return strings.Join(parts, ", ")
}

// fit keeps the first n lines, saying how many it left out.
func fit(lines []string, n int) string {
	if len(lines) > n {
		lines = append(lines[:n-1], fmt.Sprintf("… and %d more lines", len(lines)-n+1))
	}
	return strings.Join(lines, "\n")
}

// trim cuts s to n cells.
func trim(s string, n int) string { return ansi.Truncate(s, n, "…") }
