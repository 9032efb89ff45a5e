package history

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/model"
)

// PaceStep is the step of the pace the reads beyond what is shown go at:
// each step lets Policy.Rate × PaceStep more start (a rate under one a
// step adds up over steps), and what a step leaves unused is not saved,
// so the server never gets more than a step's worth at once.
const PaceStep = 200 * time.Millisecond

// milli is a read in the budget's units: a thousandth of a read, so a
// slow rate adds up exactly.
const milli = 1000

// budget is how many of size reads beyond what is shown may start now:
// all of them when the policy sets no pace.
func (h *Reader) budget(size int) int {
	if h.policy.Rate <= 0 {
		return size
	}
	return min(size, h.credit/milli)
}

// spend takes n reads off the step's budget.
func (h *Reader) spend(n int) { h.credit -= n * milli }

// refill gives the budget a step's worth, up to a step's worth (at least
// one read); a new round starts with it full.
func (h *Reader) refill(full bool) {
	step := h.policy.Rate * milli * int(PaceStep/time.Millisecond) / 1000
	limit := max(step, milli)
	if full {
		h.credit = limit
		return
	}
	h.credit = min(h.credit+step, limit)
}

// pending says reads beyond what is shown are waiting on the pace: the
// queue, or, while a sort or filter needs every history, the deferred
// ones and the unread.
func (h *Reader) pending(st *model.State) bool {
	return len(h.queue) > 0 || h.all && (len(h.deferred) > 0 || st.Tally().Unread > 0)
}

// paceLater starts the wait for the next step, unless one is out.
func (h *Reader) paceLater() tea.Cmd {
	if h.pacing {
		return nil
	}
	h.pacing = true
	return after(PaceStep, Msg{tag: h.tag, pace: true})
}
