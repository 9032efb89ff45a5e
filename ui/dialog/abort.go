package dialog

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

// Abort is the `x` and `X` confirmation. It names exactly the sessions
// that will be stopped, and on yes asks to stop exactly those.
type Abort struct {
	st   *styles.Styles
	keys ConfirmKeyMap

	tree    bool     // X: the whole subtree
	targets []string // what yes aborts, in order
	title   string
	lines   []string // the named sessions, drawn when the dialog opened
	note    string

	aborting bool
	err      string
}

// NewAbort asks before aborting one session; kids are its running
// descendants, which OpenCode stops along with it.
func NewAbort(st *styles.Styles, state *model.State, id string, kids []string, w int) Abort {
	d := Abort{st: st, keys: DefaultConfirmKeyMap(), targets: []string{id}}
	inner := Width(w, 76) - 4
	d.title = "Abort " + SessionLabel(state, id, inner-6) + "?"
	if len(kids) > 0 {
		d.note = fmt.Sprintf("It has %d running %s below it, which stop with it:", len(kids), format.Noun(len(kids), "session", "sessions"))
		for _, k := range kids {
			d.lines = append(d.lines, "• "+SessionLabel(state, k, inner-2))
		}
	} else {
		d.note = "Its run stops with MessageAbortedError; resume it later with r."
	}
	return d
}

// NewAbortTree asks before aborting plan: a subtree's running sessions,
// deepest first, the root last.
func NewAbortTree(st *styles.Styles, state *model.State, plan []string, w int) Abort {
	d := Abort{st: st, keys: DefaultConfirmKeyMap(), tree: true, targets: plan}
	inner := Width(w, 76) - 4
	d.title = fmt.Sprintf("Abort %d running %s in this subtree?", len(plan), format.Noun(len(plan), "session", "sessions"))
	d.note = "Deepest first; nothing outside the subtree is touched:"
	for i, k := range plan {
		d.lines = append(d.lines, fmt.Sprintf("%d. %s", i+1, SessionLabel(state, k, inner-5)))
	}
	return d
}

// Update handles the abort's reply and the yes/no keys.
func (d Abort) Update(msg tea.Msg) (room.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case task.AbortReply:
		return d.aborted(msg)
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, d.keys.No):
			return nil, nil
		case d.aborting:
			return d, nil
		case key.Matches(msg, d.keys.Yes):
			d.aborting, d.err = true, ""
			return d, room.Send(task.AbortRequest{IDs: d.targets, Tree: d.tree})
		}
	}
	return d, nil
}

func (d Abort) aborted(msg task.AbortReply) (room.Dialog, tea.Cmd) {
	d.aborting = false
	if errors.Is(msg.Err, task.ErrNotRunning) {
		return nil, room.Flash(ErrText(msg.Err), false)
	}
	if msg.Err != nil {
		d.err = ErrText(msg.Err)
		if len(msg.IDs) > 0 {
			d.err = fmt.Sprintf("aborted %d, then: %s", len(msg.IDs), d.err)
		}
		return d, nil
	}
	text := "aborted " + msg.IDs[0]
	if len(msg.IDs) > 1 {
		text = fmt.Sprintf("aborted %d sessions: %s", len(msg.IDs), strings.Join(msg.IDs, " "))
	}
	return nil, room.Flash(text, false)
}

// View draws the confirmation for a w×h screen.
func (d Abort) View(w, h int) string {
	width := Width(w, 76)
	inner := width - 4
	var b strings.Builder
	b.WriteString(d.note)
	// Leave room for the frame, title, note and hint.
	room := max(h-10, 3)
	for i, l := range d.lines {
		if i == room-1 && len(d.lines) > room {
			fmt.Fprintf(&b, "\n  … and %d more", len(d.lines)-i)
			break
		}
		b.WriteString("\n  " + l)
	}
	switch {
	case d.aborting:
		b.WriteString("\n\n" + d.st.Busy.Render("aborting…"))
	case d.err != "":
		b.WriteString("\n\n" + ErrorLine(d.st, inner, d.err))
	}
	return Frame(d.st, width, d.title, b.String(), Hint(d.keys.ShortHelp()...))
}
