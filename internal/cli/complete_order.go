package cli

import (
	"cmp"
	"slices"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// offer is which sessions a command's id completes to first: the ones
// the command applies to.
type offer uint8

const (
	offerNewest   offer = iota // the most recently active first
	offerRunning               // running ones first (abort, say)
	offerFinished              // finished ones first (result, resume, retry)
)

// completion is a session offered for an id, with what it does now when
// it runs (model.Kind's word; "" when it does not).
type completion struct {
	s       wire.Session
	running string
}

// ordered is found (the sessions on offer, newest first) with whether
// each runs, as model.StateOf says from the listing and the run states,
// in o's order, at most limit of them. Only the newest limit and the
// running ones enter the model: what is offered comes from them.
func ordered(found []wire.Session, status map[string]wire.SessionStatus, o offer, limit int) []completion {
	busy := 0
	for _, s := range found {
		if st, ok := status[s.ID]; ok && st.Type != wire.StatusIdle {
			busy++
		}
	}
	var pick []wire.Session
	for i, s := range found {
		if _, ok := status[s.ID]; ok || i < limit+busy {
			pick = append(pick, s)
		}
	}
	st := model.New()
	st.ApplySnapshot(model.Snapshot{Sessions: pick, Status: status})
	out := make([]completion, len(pick))
	for i, s := range pick {
		out[i] = completion{s: s}
		if k := model.StateOf(st.Session(s.ID)).Kind; k.Live() {
			out[i].running = k.String()
		}
	}
	rank := func(c completion) int {
		switch {
		case o == offerRunning && c.running == "", o == offerFinished && c.running != "":
			return 1
		}
		return 0
	}
	slices.SortStableFunc(out, func(x, y completion) int { return cmp.Compare(rank(x), rank(y)) })
	return out[:min(len(out), limit)]
}
