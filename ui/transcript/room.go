package transcript

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

// Room is the transcript as the root's full-screen Dialog. It asks for the
// session's messages (task.MessagesRequest), then follows the stream
// (room.Observer). enter on a task call opens the child's transcript in
// its place; backspace goes back to the parent's.
type Room struct {
	m    Model
	st   *styles.Styles
	md   func(string, int) string
	back *Room
}

// FirstPage is how many of the newest messages are read first: they
// fill the screen while the whole session loads.
const FirstPage = 30

// Open opens session id's transcript; its Cmd asks for the newest
// messages, then (on their reply) for all of them.
func Open(st *styles.Styles, id, title string, md func(string, int) string) (room.Dialog, tea.Cmd) {
	r := &Room{m: New(id, title, st, md), st: st, md: md}
	return r, room.Send(task.MessagesRequest{ID: id, Limit: FirstPage})
}

// Update handles the messages' reply, the room's own requests and keys.
func (r *Room) Update(msg tea.Msg) (room.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case task.MessagesReply:
		if msg.ID != r.m.id {
			return r, nil
		}
		r.m.SetRunning(msg.Running)
		r.m, _ = r.m.Update(Loaded{ID: msg.ID, Msgs: msg.Msgs, Err: msg.Err})
		if msg.Partial && msg.Err == nil {
			return r, room.Send(task.MessagesRequest{ID: msg.ID})
		}
		return r, nil
	case Close:
		return nil, nil
	case OpenChild:
		child := &Room{m: New(msg.ID, msg.ID, r.st, r.md), st: r.st, md: r.md, back: r}
		child.m.keys.Back.SetEnabled(true)
		child.m.SetSize(r.m.width, r.m.height)
		return child, room.Send(task.MessagesRequest{ID: msg.ID, Limit: FirstPage})
	case tea.KeyPressMsg:
		if key.Matches(msg, r.m.keys.Back) && r.back != nil && !r.m.Searching() {
			return r.back, nil
		}
	}
	var cmd tea.Cmd
	r.m, cmd = r.m.Update(msg)
	return r, cmd
}

// Observe folds the stream's events in and keeps the header's title and
// live state current.
func (r *Room) Observe(st *model.State, evs []wire.Event, _ int64) room.Dialog {
	if ss := st.Session(r.m.id); ss != nil {
		// The model's state: running while a stopped run's grace lasts,
		// and a call left open by an abort is aborted, not interrupted.
		k := model.StateOf(ss).Kind
		r.m.SetAborted(k == model.KindAborted)
		r.m.SetRunning(k.Live())
		if ss.Title != "" {
			r.m.title = ss.Title
		}
	}
	r.m.ApplyEvents(evs)
	return r
}

// View draws the whole screen: the transcript, its keys on the last line.
func (r *Room) View(w, h int) string {
	r.m.SetSize(w, max(h-1, 1))
	lines := append(strings.Split(r.m.View(), "\n"), r.st.KeyLine(w, r.m.keys.ShortHelp()))
	for i, l := range lines {
		lines[i] = format.Fit(l, w)
	}
	return strings.Join(lines, "\n")
}
