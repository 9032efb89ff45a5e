package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/actions"
	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/styles"
)

// ConfirmKeyMap is the keys of a yes/no dialog.
type ConfirmKeyMap struct {
	Yes key.Binding
	No  key.Binding
}

// DefaultConfirmKeyMap returns the confirmation keys: y or enter confirms,
// n or esc backs out.
func DefaultConfirmKeyMap() ConfirmKeyMap {
	return ConfirmKeyMap{
		Yes: key.NewBinding(key.WithKeys("y", "enter"), key.WithHelp("y/enter", "abort")),
		No:  key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "keep running")),
	}
}

// abortedMsg is the reply to an abort.
type abortedMsg struct {
	seq int64
	ids []string
	err error
}

// abortConfirm is the `x` and `X` confirmation. It names exactly the
// sessions that will be stopped, and on yes stops exactly those.
type abortConfirm struct {
	seq  int64
	c    *client.Client
	st   *styles.Styles
	keys ConfirmKeyMap

	id      string
	tree    bool     // X: the whole subtree
	targets []string // what yes aborts, in order
	title   string
	lines   []string // the named sessions, drawn when the dialog opened
	note    string

	aborting bool
	err      string
}

// newAbortConfirm asks before aborting one session; kids are its running
// descendants, which OpenCode stops along with it.
func newAbortConfirm(c *client.Client, st *styles.Styles, state *model.State, id string, kids []string, w int) abortConfirm {
	d := abortConfirm{seq: nextSeq(), c: c, st: st, keys: DefaultConfirmKeyMap(), id: id, targets: []string{id}}
	inner := dialogWidth(w, 76) - 4
	d.title = "Abort " + sessionLabel(state, id, inner-6) + "?"
	if len(kids) > 0 {
		d.note = fmt.Sprintf("It has %d running %s below it, which stop with it:", len(kids), format.Noun(len(kids), "session", "sessions"))
		for _, k := range kids {
			d.lines = append(d.lines, "• "+sessionLabel(state, k, inner-2))
		}
	} else {
		d.note = "Its run stops with MessageAbortedError; resume it later with r."
	}
	return d
}

// newAbortTreeConfirm asks before aborting plan: a subtree's running
// sessions, deepest first, the root last.
func newAbortTreeConfirm(c *client.Client, st *styles.Styles, state *model.State, id string, plan []string, w int) abortConfirm {
	d := abortConfirm{seq: nextSeq(), c: c, st: st, keys: DefaultConfirmKeyMap(), id: id, tree: true, targets: plan}
	inner := dialogWidth(w, 76) - 4
	d.title = fmt.Sprintf("Abort %d running %s in this subtree?", len(plan), format.Noun(len(plan), "session", "sessions"))
	d.note = "Deepest first; nothing outside the subtree is touched:"
	for i, k := range plan {
		d.lines = append(d.lines, fmt.Sprintf("%d. %s", i+1, sessionLabel(state, k, inner-5)))
	}
	return d
}

func (d abortConfirm) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case abortedMsg:
		if msg.seq != d.seq {
			return d, nil
		}
		d.aborting = false
		if errors.Is(msg.err, actions.ErrNotRunning) {
			return nil, flashCmd(errText(msg.err), false)
		}
		if msg.err != nil {
			d.err = errText(msg.err)
			if len(msg.ids) > 0 {
				d.err = fmt.Sprintf("aborted %d, then: %s", len(msg.ids), d.err)
			}
			return d, nil
		}
		text := "aborted " + msg.ids[0]
		if len(msg.ids) > 1 {
			text = fmt.Sprintf("aborted %d sessions: %s", len(msg.ids), strings.Join(msg.ids, " "))
		}
		return nil, flashCmd(text, false)
	case tea.KeyPressMsg:
		if d.aborting {
			return d, nil
		}
		switch {
		case key.Matches(msg, d.keys.No):
			return nil, nil
		case key.Matches(msg, d.keys.Yes):
			d.aborting, d.err = true, ""
			return d, d.abort()
		}
	}
	return d, nil
}

// abort stops the sessions. One session goes through actions.Abort, which
// checks it still runs; a subtree stops exactly the sessions named.
func (d abortConfirm) abort() tea.Cmd {
	seq, c, id, targets, tree := d.seq, d.c, d.id, d.targets, d.tree
	return func() tea.Msg {
		return withTimeout(func(ctx context.Context) tea.Msg {
			if !tree {
				_, err := actions.Abort(ctx, c, id)
				if err != nil {
					return abortedMsg{seq: seq, err: err}
				}
				return abortedMsg{seq: seq, ids: []string{id}}
			}
			ids, err := actions.AbortSessions(ctx, c, targets)
			return abortedMsg{seq: seq, ids: ids, err: err}
		})
	}
}

func (d abortConfirm) View(w, h int) string {
	width := dialogWidth(w, 76)
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
		b.WriteString("\n\n" + errorLine(d.st, inner, d.err))
	}
	return frame(d.st, width, d.title, b.String(), hint(d.keys.Yes, d.keys.No))
}
