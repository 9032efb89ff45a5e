package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/actions"
	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/ui/styles"
	"github.com/octop-dev/octop/wire"
)

// resultRefresh is how often an open result view re-reads a running task.
const resultRefresh = time.Second

// ResultKeyMap is the result view's own keys; the viewport's keys scroll.
type ResultKeyMap struct {
	Close key.Binding
	Copy  key.Binding
}

// DefaultResultKeyMap returns the result view's keys.
func DefaultResultKeyMap() ResultKeyMap {
	return ResultKeyMap{
		Close: key.NewBinding(key.WithKeys("esc", "q", "o"), key.WithHelp("esc", "close")),
		Copy:  key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy task_id")),
	}
}

// resultMsg is the reply to a result read.
type resultMsg struct {
	seq int64
	r   actions.TaskResult
	err error
}

// resultTickMsg asks a result view to read a running task again.
type resultTickMsg struct{ seq int64 }

// resultView is the `o` dialog: a scrollable view of the session's outcome
// in async-task terms: running (with its tool calls, refreshed), complete
// (the last assistant text), error (name and message), or not found.
type resultView struct {
	seq     int64
	c       *client.Client
	st      *styles.Styles
	keys    ResultKeyMap
	id      string
	title   string
	vp      viewport.Model
	loaded  bool
	res     actions.TaskResult
	err     string
	missing bool // err says the session is not on the server
	width   int
	content string
	md      *markdown // renders the answer; shared by the view's copies so its cache lasts
}

func newResultView(c *client.Client, st *styles.Styles, id, title string, w, h int) (Dialog, tea.Cmd) {
	v := resultView{seq: nextSeq(), c: c, st: st, keys: DefaultResultKeyMap(), id: id, title: title, md: newMarkdown(st)}
	v.width = dialogWidth(w, 100)
	v.vp = viewport.New(viewport.WithWidth(v.width-4), viewport.WithHeight(max(h-10, 3)))
	return v, v.fetch()
}

func (v resultView) fetch() tea.Cmd {
	seq, c, id := v.seq, v.c, v.id
	return func() tea.Msg {
		return withTimeout(func(ctx context.Context) tea.Msg {
			r, err := actions.Result(ctx, c, id)
			return resultMsg{seq: seq, r: r, err: err}
		})
	}
}

func (v resultView) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case resultMsg:
		if msg.seq != v.seq {
			return v, nil
		}
		v.loaded = true
		if msg.err != nil {
			v.err, v.missing = errText(msg.err), isNoSession(msg.err)
			v.setContent()
			return v, nil
		}
		v.err, v.missing, v.res = "", false, msg.r
		v.setContent()
		if msg.r.State == actions.StateRunning {
			seq := v.seq
			return v, tea.Tick(resultRefresh, func(time.Time) tea.Msg { return resultTickMsg{seq} })
		}
		return v, nil
	case resultTickMsg:
		if msg.seq != v.seq {
			return v, nil
		}
		return v, v.fetch()
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, v.keys.Close):
			return nil, nil
		case key.Matches(msg, v.keys.Copy):
			return v, tea.Batch(tea.SetClipboard(v.id), flashCmd("copied task_id "+v.id, false))
		}
	}
	var cmd tea.Cmd
	v.vp, cmd = v.vp.Update(msg)
	return v, cmd
}

// setContent renders the result into the viewport, keeping the scroll
// position across refreshes unless the view was at the bottom.
func (v *resultView) setContent() {
	inner := v.width - 4
	atBottom := v.vp.AtBottom()
	v.content = renderResult(v.st, v.id, v.res, v.err, v.missing, inner, v.md.render)
	v.vp.SetContent(v.content)
	if atBottom && v.res.State == actions.StateRunning {
		v.vp.GotoBottom()
	}
}

// renderResult draws a result for a box inner cells wide; answer renders
// the agent's text (markdown) for a width.
func renderResult(st *styles.Styles, id string, r actions.TaskResult, errMsg string, missing bool, inner int, answer func(string, int) string) string {
	var b strings.Builder
	line := func(label, value string) {
		b.WriteString(st.Label.Render(label) + " " + value + "\n")
	}
	if errMsg != "" {
		status := "unknown: the server did not answer"
		if missing {
			status = "not found"
		}
		line("status:", st.Failed.Render(status))
		line("task_id:", id)
		b.WriteString("\n" + ansi.Wrap(errMsg, inner, " "))
		return b.String()
	}
	stateStyle := st.Done
	switch r.State {
	case actions.StateRunning:
		stateStyle = st.Busy
	case actions.StateError:
		stateStyle = st.Failed
	}
	state := r.State
	if r.Retry != nil {
		state += fmt.Sprintf(" (retry %d: %s)", r.Retry.Attempt, r.Retry.Message)
	}
	line("status:", stateStyle.Render(state))
	line("task_id:", r.TaskID)
	if r.Agent != "" {
		line("agent:", "@"+r.Agent)
	}
	switch r.State {
	case actions.StateError:
		b.WriteString("\n" + st.Failed.Render(ansi.Wrap(r.ErrorLine(), inner, " ")) + "\n")
		if r.Text != "" {
			b.WriteString("\n" + st.Label.Render("last text before it stopped:") + "\n")
			b.WriteString(answer(r.Text, inner) + "\n")
		}
	case actions.StateComplete:
		b.WriteString("\n")
		if strings.TrimSpace(r.Text) == "" {
			b.WriteString(st.Dim.Render("(no text in the last answer)") + "\n")
		} else {
			b.WriteString(answer(r.Text, inner) + "\n")
		}
	case actions.StateRunning:
		b.WriteString("\n")
		if len(r.Tools) == 0 {
			b.WriteString(st.Dim.Render("no tool calls yet in this run") + "\n")
		}
		for _, t := range r.Tools {
			mark, style := "·", st.Dim
			switch t.Status {
			case wire.ToolRunning, wire.ToolPending:
				mark, style = "●", st.Busy
			case wire.ToolCompleted:
				mark, style = "✓", st.Done
			case wire.ToolError:
				mark, style = "✗", st.Failed
			}
			row := style.Render(mark) + " " + t.Tool
			if t.Title != "" {
				row += "  " + st.Dim.Render(strings.Join(strings.Fields(t.Title), " "))
			}
			if t.Error != "" {
				row += "  " + st.Failed.Render(strings.Join(strings.Fields(t.Error), " "))
			}
			b.WriteString(ansi.Truncate(row, inner, "…") + "\n")
		}
		if strings.TrimSpace(r.Text) != "" {
			b.WriteString("\n" + answer(r.Text, inner) + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func (v resultView) View(w, h int) string {
	body := v.st.Dim.Render("loading…")
	if v.loaded {
		vp := v.vp
		vp.SetHeight(min(max(h-10, 3), max(strings.Count(v.content, "\n")+1, 1)))
		body = vp.View()
	}
	hintText := hint(v.keys.Close, v.keys.Copy)
	if v.loaded && v.vp.TotalLineCount() > v.vp.Height() {
		hintText = fmt.Sprintf("↑/↓ pgup/pgdn scroll (%d%%) · %s", int(v.vp.ScrollPercent()*100), hintText)
	}
	return frame(v.st, v.width, "Result of "+v.title, body, hintText)
}
