package history

import "github.com/octop-dev/octop/model"

// Sweep seals every session whose history is read, that is idle and asks
// nothing, unless the screen wants it (its row in view, selected, or
// asked for by a room): what the replies' seal (in Want) does not reach,
// such as a session that ended while watched or a row scrolled out of
// view. The root calls it once a second; it costs a pass over the
// sessions only when the state or the wanted sessions moved since the
// last one.
func (h *Reader) Sweep(st *model.State) {
	if h.tag == 0 || (st.Version() == h.swept && h.wantV == h.sweptWant) {
		return
	}
	h.swept, h.sweptWant = st.Version(), h.wantV
	keep := make(map[string]bool, len(h.want))
	for _, id := range h.want {
		keep[id] = true
	}
	st.SealIdleExcept(keep)
}
