package history

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/model"
)

// Wanted is what the screen shows now, most wanted first.
type Wanted struct {
	// Selected is the selected session: read first, again when sealed,
	// and kept whole (the detail shows its calls).
	Selected string
	// Asked are the sessions a room shows whole (the timeline's subtree):
	// read at once, again when sealed, and kept whole.
	Asked []string
	// Shown are the rows in view: read at once and kept whole.
	Shown []string
	// All says a sort or filter needs every history.
	All bool
}

// Want says what the screen shows now (w); it seals what the last
// replies read unless w keeps it whole, and starts the reads that can
// start. It is called after every change of the view, so it costs little
// when nothing changed: a look at each wanted session.
func (h *Reader) Want(st *model.State, o task.Server, w Wanted) tea.Cmd {
	want := h.spare[:0] // the last Want's, kept to compare the two
	if w.Selected != "" {
		want = append(want, w.Selected)
	}
	want = append(append(want, w.Asked...), w.Shown...)
	if !slices.Equal(want, h.want) {
		h.wantV++
	}
	h.want, h.spare = want, h.want
	h.whole = append(append(h.whole[:0], w.Asked...), w.Selected)
	h.all = w.All
	for _, id := range h.seal {
		if !slices.Contains(h.want, id) {
			st.SealIdle(id) // not if it runs or asks something now
		}
	}
	h.seal = h.seal[:0]
	if h.inFlight == nil || h.reads >= Parallel {
		return nil // no round yet, or every read out
	}
	return h.Next(st, o)
}
