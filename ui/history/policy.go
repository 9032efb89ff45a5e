package history

import (
	"time"

	"github.com/octop-dev/octop/model"
)

// Policy says which histories the screen reads without being asked. A
// server keeping a year of sessions holds tens of thousands of finished
// ones nobody is about to look at: reading them all would take minutes
// of the server's time and most of the screen's memory.
type Policy struct {
	// LazyAfter: with more sessions than this (0: never), a session last
	// updated more than Window ago is read only when it is wanted: its
	// row is in view or selected, or a sort or filter needs every
	// history. Until then its row shows what the list says and "…".
	LazyAfter int
	Window    time.Duration
	// Rate is how many histories a second the screen reads beyond what
	// it shows (0: as fast as Parallel reads go), in steps of PaceStep:
	// the rows in view, the selection and what a room asks for are read
	// at once, whatever the rate.
	Rate int
}

// DefaultRate is the reads a second beyond what is shown by default: on
// OpenCode 1.18.33 it takes under a fifth of the server's one
// JavaScript thread (docs/perf.md gives the measure).
const DefaultRate = 25

// DefaultPolicy is lazy past 5,000 sessions, for those not updated in
// the last 7 days, and reads DefaultRate histories a second beyond what
// is shown.
var DefaultPolicy = Policy{LazyAfter: 5000, Window: 7 * 24 * time.Hour, Rate: DefaultRate}

// lazy says whether the policy defers old histories on a state of n
// sessions.
func (p Policy) lazy(n int) bool { return p.LazyAfter > 0 && n > p.LazyAfter }

// split divides the sessions st lacks the history of (newest first, as
// model.NeedsHistory lists them) into those read without being asked and
// those read only when wanted: under the policy's threshold, none of the
// latter.
func (p Policy) split(st *model.State, nowMS int64) (eager, deferred []string) {
	need := st.NeedsHistory()
	if !p.lazy(st.Len()) {
		return need, nil
	}
	cut := nowMS - p.Window.Milliseconds()
	for i, id := range need {
		// Newest first: the rest are older still.
		if ss := st.Session(id); ss == nil || ss.Updated < cut {
			return need[:i:i], need[i:]
		}
	}
	return need, nil
}
