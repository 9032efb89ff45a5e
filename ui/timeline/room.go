package timeline

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

// Room is the timeline as the root's full-screen Dialog; it redraws from
// the live model on every batch and tick (room.Observer), and asks the
// root to keep its sessions whole (room.Wanter): it draws their calls.
type Room struct {
	m   Model
	ids []string // the subtree drawn
}

// Open opens the timeline of the subtree rooted at id.
func Open(st *styles.Styles, state *model.State, id string, nowMS int64) room.Dialog {
	r := &Room{m: New(id, st)}
	r.set(state, nowMS)
	return r
}

// set lays the subtree out as it is in state now.
func (r *Room) set(state *model.State, nowMS int64) {
	r.ids = state.SubtreeIDs(r.m.rootID)
	r.m.SetData(Spans(state, r.m.rootID), nowMS)
}

// Wants is the subtree the timeline draws, whose calls it reads.
func (r *Room) Wants() []string { return r.ids }

// Update handles keys and the close request.
func (r *Room) Update(msg tea.Msg) (room.Dialog, tea.Cmd) {
	if _, ok := msg.(Close); ok {
		return nil, nil
	}
	var cmd tea.Cmd
	r.m, cmd = r.m.Update(msg)
	return r, cmd
}

// Observe lays the subtree out again as it is now.
func (r *Room) Observe(st *model.State, _ []wire.Event, nowMS int64) room.Dialog {
	if st.Session(r.m.rootID) == nil {
		return r
	}
	r.set(st, nowMS)
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
