package ui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"strings"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/actions"
	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

// actionTimeout bounds one action's calls to the server (a launch makes
// four). Waiting for a busy session before a resume is bounded separately.
const actionTimeout = 30 * time.Second

// ActionHandler carries out the reserved keys with the actions package, the
// same code the subcommands run. Every call leaves Start as a tea.Cmd; the
// tree changes when the server's events say so, never by a guess.
type ActionHandler struct {
	c *client.Client
}

// NewActionHandler returns the handler for a live server.
func NewActionHandler(c *client.Client) *ActionHandler { return &ActionHandler{c: c} }

// dialogSeq numbers dialogs, so a reply meant for a dialog that was closed
// (and perhaps replaced by another of the same kind) is dropped.
var dialogSeq atomic.Int64

func nextSeq() int64 { return dialogSeq.Add(1) }

// Start opens the dialog for an action, or answers at once with a notice.
func (h *ActionHandler) Start(req ActionRequest) (Dialog, tea.Cmd) {
	st := req.Styles
	if st == nil {
		st = styles.New(true, false)
	}
	sel := req.Selected
	var ss *model.Session
	if sel != "" && req.State != nil {
		ss = req.State.Session(sel)
	}
	needSel := func(what string) (Dialog, tea.Cmd) {
		return nil, flashCmd("select a session to "+what+" first", true)
	}
	switch req.Action {
	case ActionLaunch:
		if sel == "" {
			return nil, flashCmd("select the session to launch under (N launches a new root)", true)
		}
		return newLaunchForm(h.c, st, sel, titleOf(ss, sel), req.Width, req.Height)
	case ActionLaunchRoot:
		return newLaunchForm(h.c, st, "", "", req.Width, req.Height)
	case ActionResume:
		if sel == "" {
			return needSel("resume")
		}
		if ss != nil && ss.Running() {
			return newBusyDialog(h.c, st, sel, titleOf(ss, sel), req.Width, req.Height), nil
		}
		return newResumeForm(h.c, st, sel, titleOf(ss, sel), req.Width, req.Height)
	case ActionResumeByID:
		return newResumeByIDForm(h.c, st, req.Width, req.Height)
	case ActionAbort:
		if sel == "" {
			return needSel("abort")
		}
		if ss == nil || !ss.Running() {
			return nil, flashCmd(fmt.Sprintf("%s is idle; nothing to abort", sel), false)
		}
		var kids []string
		if req.State != nil {
			kids = req.State.BusyDescendants(sel)
		}
		return newAbortConfirm(h.c, st, req.State, sel, kids, req.Width), nil
	case ActionAbortTree:
		if sel == "" {
			return needSel("abort")
		}
		plan := abortPlan(req.State, sel)
		if len(plan) == 0 {
			return nil, flashCmd(fmt.Sprintf("nothing runs in the subtree of %s; nothing to abort", sel), false)
		}
		return newAbortTreeConfirm(h.c, st, req.State, sel, plan, req.Width), nil
	case ActionOpen:
		if sel == "" {
			return needSel("open")
		}
		return newResultView(h.c, st, sel, titleOf(ss, sel), req.Width, req.Height)
	case ActionCopyID:
		if sel == "" {
			return needSel("copy")
		}
		return nil, tea.Batch(tea.SetClipboard(sel), flashCmd("copied task_id "+sel, false))
	case ActionInbox:
		return newInbox(h.c, st, req.State, req.Width), nil
	}
	return nil, flashCmd(req.Action.String()+": not available yet", false)
}

// abortPlan is what X stops, from the live tree: the running descendants,
// deepest first, then the session itself if it runs.
func abortPlan(st *model.State, id string) []string {
	if st == nil {
		return nil
	}
	plan := st.BusyDescendants(id)
	if s := st.Session(id); s != nil && s.Running() {
		plan = append(plan, id)
	}
	return plan
}

func titleOf(s *model.Session, id string) string {
	if s == nil || s.Title == "" {
		return id
	}
	return s.Title
}

// flashCmd shows a one-line notice in the footer.
func flashCmd(text string, isErr bool) tea.Cmd {
	return func() tea.Msg { return FlashMsg{Text: text, Error: isErr} }
}

func selectCmd(id string) tea.Cmd {
	return func() tea.Msg { return SelectMsg{ID: id} }
}

// withTimeout runs f with a context bounded by actionTimeout.
func withTimeout[T any](f func(ctx context.Context) T) T {
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	return f(ctx)
}

// dialogWidth is the width of a dialog box on a screen of width w: room to
// read, never wider than the screen.
func dialogWidth(w, want int) int {
	if w <= 0 {
		w = 80
	}
	return max(min(want, w-2), 20)
}

// frame draws a dialog: a bordered box with a bold title, the body, and a
// hint line of keys at the bottom. width is the box's outer width.
func frame(st *styles.Styles, width int, title, body, hint string) string {
	inner := width - 4 // border and one cell of padding each side
	var b strings.Builder
	b.WriteString(st.Focused.Render(ansi.Truncate(title, inner, "…")))
	b.WriteString("\n\n")
	b.WriteString(body)
	if hint != "" {
		b.WriteString("\n\n")
		b.WriteString(st.Dim.Render(ansi.Wrap(hint, inner, " ")))
	}
	box := lipgloss.NewStyle().
		Border(lipgloss.RoundedBorder()).
		BorderForeground(borderColor(st)).
		Padding(0, 1).
		Width(width)
	return box.Render(b.String())
}

func borderColor(st *styles.Styles) color.Color {
	if st.NoColor {
		return lipgloss.NoColor{}
	}
	return st.Focused.GetForeground()
}

// errorLine draws a dialog's error, wrapped to the box.
func errorLine(st *styles.Styles, inner int, msg string) string {
	if msg == "" {
		return ""
	}
	return st.Failed.Render(ansi.Wrap("✗ "+msg, inner, " "))
}

// sessionLabel is "title (ses_…)" cut to n cells.
func sessionLabel(st *model.State, id string, n int) string {
	t := id
	if st != nil {
		if s := st.Session(id); s != nil && s.Title != "" {
			t = s.Title + "  " + id
		}
	}
	return ansi.Truncate(t, n, "…")
}

// errText is an action error as one line for a dialog or a notice.
func errText(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }

// isNoSession reports an unknown id, which dialogs say plainly.
func isNoSession(err error) bool {
	return err != nil && (errors.Is(err, actions.ErrNoSession) || client.IsNotFound(err))
}
