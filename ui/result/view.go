package result

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/dialog"
	"github.com/octop-dev/octop/ui/markdown"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

// refresh is how often an open result view re-reads a running task.
const refresh = time.Second

// refreshMsg asks the view to read a running task again.
type refreshMsg struct{}

// Model is the result view.
type Model struct {
	st      *styles.Styles
	keys    KeyMap
	id      string
	title   string
	vp      viewport.Model
	loaded  bool
	res     task.Result
	err     string
	missing bool // err says the session is not on the server
	width   int
	content string
	md      *markdown.Renderer // renders the answer; shared by the view's copies so its cache lasts
}

// New opens the result of session id on a w×h screen; its Cmd asks for it.
func New(st *styles.Styles, id, title string, w, h int) (Model, tea.Cmd) {
	v := Model{st: st, keys: DefaultKeyMap(), id: id, title: title, md: markdown.New(st.IsDark, st.NoColor)}
	v.width = dialog.Width(w, 100)
	v.vp = viewport.New(viewport.WithWidth(v.width-4), viewport.WithHeight(max(h-10, 3)))
	return v, room.Send(task.ResultRequest{ID: id})
}

// Update handles the result's replies, the refresh and the keys.
func (v Model) Update(msg tea.Msg) (room.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case task.ResultReply:
		v.loaded = true
		if msg.Err != nil {
			v.err, v.missing = dialog.ErrText(msg.Err), errors.Is(msg.Err, task.ErrNoSession)
			v.setContent()
			return v, nil
		}
		v.err, v.missing, v.res = "", false, msg.Result
		v.setContent()
		if msg.Result.State == model.StatusRunning {
			return v, room.After(refresh, refreshMsg{})
		}
		return v, nil
	case refreshMsg:
		return v, room.Send(task.ResultRequest{ID: v.id})
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, v.keys.Close):
			return nil, nil
		case key.Matches(msg, v.keys.Copy):
			return v, tea.Batch(tea.SetClipboard(v.id), room.Flash("copied task_id "+v.id, false))
		}
	}
	var cmd tea.Cmd
	v.vp, cmd = v.vp.Update(msg)
	return v, cmd
}

// setContent renders the result into the viewport, keeping the scroll
// position across refreshes unless the view was at the bottom.
func (v *Model) setContent() {
	inner := v.width - 4
	atBottom := v.vp.AtBottom()
	v.content = Render(v.st, v.id, v.res, v.err, v.missing, inner, v.md.Render)
	v.vp.SetContent(v.content)
	if atBottom && v.res.State == model.StatusRunning {
		v.vp.GotoBottom()
	}
}

// View draws the result for a w×h screen.
func (v Model) View(w, h int) string {
	body := v.st.Dim.Render("loading…")
	if v.loaded {
		vp := v.vp
		vp.SetHeight(min(max(h-10, 3), max(strings.Count(v.content, "\n")+1, 1)))
		body = vp.View()
	}
	hintText := dialog.Hint(v.keys.ShortHelp()...)
	if v.loaded && v.vp.TotalLineCount() > v.vp.Height() {
		hintText = fmt.Sprintf("↑/↓ pgup/pgdn scroll (%d%%) · %s", int(v.vp.ScrollPercent()*100), hintText)
	}
	return dialog.Frame(v.st, v.width, "Result of "+v.title, body, hintText)
}
