package diff

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

// Room is the files-changed view as the root's full-screen Dialog: it asks
// for the session's messages, and again every RefreshEvery while the
// session runs.
type Room struct{ m Model }

// Open opens session id's files; its Cmd asks for the messages and starts
// the refresh tick.
func Open(st *styles.Styles, id, title string) (room.Dialog, tea.Cmd) {
	r := &Room{m: New(id, title, st)}
	return r, tea.Batch(room.Send(task.MessagesRequest{ID: id}), r.m.Init())
}

// Update handles the reply, the reload tick and keys.
func (r *Room) Update(msg tea.Msg) (room.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case task.MessagesReply:
		r.m.SetRunning(msg.Running)
		r.m, _ = r.m.Update(Loaded{ID: msg.ID, Msgs: msg.Msgs, Err: msg.Err})
		return r, nil
	case Reload:
		return r, room.Send(task.MessagesRequest{ID: msg.ID})
	case Close:
		return nil, nil
	}
	var cmd tea.Cmd
	r.m, cmd = r.m.Update(msg)
	return r, cmd
}

// Observe keeps whether the session runs (it then reloads) current.
func (r *Room) Observe(st *model.State, _ []wire.Event, _ int64) room.Dialog {
	if ss := st.Session(r.m.id); ss != nil {
		r.m.SetRunning(ss.Running())
	}
	return r
}

// View draws the whole screen, the room's keys on the last line.
func (r *Room) View(w, h int) string {
	r.m.SetSize(w, max(h-1, 1))
	lines := append(strings.Split(r.m.View(), "\n"), r.m.st.KeyLine(w, r.m.keys.ShortHelp()))
	for i, l := range lines {
		lines[i] = format.Fit(l, w)
	}
	return strings.Join(lines, "\n")
}
