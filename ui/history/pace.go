package history

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/model"
)

// PaceStep is the step of the pace the reads beyond what is shown go at:
// each step lets Policy.Rate more start, and what a step leaves unused is
// not saved, so the server never gets more than a step's worth at once.
// A second: on OpenCode 1.18.33 a burst of reads costs the server's
// thread less than the same reads spread in smaller steps (docs/perf.md).
const PaceStep = time.Second

// budget is how many of size reads beyond what is shown may start now:
// all of them when the policy sets no pace.
func (h *Reader) budget(size int) int {
	if h.policy.Rate <= 0 {
		return size
	}
	return min(size, h.credit)
}

// spend takes n reads off the step's budget.
func (h *Reader) spend(n int) { h.credit -= n }

// refill gives the budget a step's worth: a new round, and each step.
func (h *Reader) refill() { h.credit = h.policy.Rate * int(PaceStep/time.Second) }

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
