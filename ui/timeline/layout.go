// Package timeline lays a subtree of sessions out as a Gantt chart: one
// bar per session over its runs (as the model times them), the
// critical path (the chain of children that held each parent up) marked,
// and a time scale of round steps fitted to the width. It is pure: the
// current time comes in as an argument; the ui's timeline view colours it.
package timeline

import (
	"fmt"

	"github.com/octop-dev/octop/model"
)

// Span is one session of the chart, in tree order.
type Span struct {
	ID, Title string
	Depth     int
	Start     int64 // Unix ms: its first run's start
	End       int64 // Unix ms: its last run's end; 0 while it runs
	// Runs are when it ran (model.State.Runs): the bar covers them and
	// leaves the idle time between them blank.
	Runs []model.Run
	Kind model.Kind
	// Critical: on the chain from the root through, at each level, the
	// child whose subtree ended last, as long as the parent was still
	// waiting on it (see heldUp): the one that held its parent up.
	Critical bool
}

// Spans reads the subtree rooted at id from the model, parent before
// child, and marks its critical path. A session that never ran spans
// nothing (Start 0).
func Spans(st *model.State, id string) []Span {
	ids := st.SubtreeIDs(id)
	out := make([]Span, 0, len(ids))
	depth := map[string]int{}
	for _, sid := range ids {
		ss := st.Session(sid)
		d := 0
		if sid != id {
			d = depth[ss.ParentID] + 1
		}
		depth[sid] = d
		sp := Span{ID: sid, Title: ss.Title, Depth: d, Kind: st.StateOf(sid).Kind, Runs: st.Runs(sid)}
		if n := len(sp.Runs); n > 0 {
			sp.Start, sp.End = sp.Runs[0].Start, sp.Runs[n-1].End
		}
		out = append(out, sp)
	}
	markCritical(st, out, id)
	return out
}

// markCritical walks from the root down, each time to the child the
// parent waited on longest: the one whose subtree finished last by the
// parent's own end (a running one finishes "now", after all others). What
// a child's subtree did after its parent had ended (a resumed child, a
// task launched under it later) held nobody up and does not count.
func markCritical(st *model.State, spans []Span, root string) {
	idx := make(map[string]int, len(spans))
	for i, s := range spans {
		idx[s.ID] = i
	}
	for id := root; id != ""; {
		parent := spans[idx[id]]
		spans[idx[id]].Critical = true
		limit := int64(running)
		if parent.Start != 0 && parent.End != 0 {
			limit = parent.End + endSlack
		}
		next, best := "", int64(0)
		for _, c := range st.Session(id).Children() {
			if f := finishBy(st, spans, idx, c.ID, limit); f > best {
				next, best = c.ID, f
			}
		}
		if next != "" && !heldUp(parent, best) {
			next = ""
		}
		id = next
	}
}

// running is the end of a span still running: after everything that ended.
const running = 1<<62 - 1

// endSlack is how much later than its parent a child may end and still
// count as one the parent waited on: an abort of a subtree, or a crash,
// stops them a moment apart.
const endSlack = 1000

// finishBy is when id's subtree last finished, counting only the ends
// that came by limit; 0 when none did.
func finishBy(st *model.State, spans []Span, idx map[string]int, id string, limit int64) int64 {
	var best int64
	for _, sid := range st.SubtreeIDs(id) {
		i, ok := idx[sid]
		if !ok {
			continue
		}
		end := spans[i].End
		if spans[i].Start != 0 && end == 0 {
			end = running
		}
		if end <= limit {
			best = max(best, end)
		}
	}
	return best
}

// heldUp says whether a parent was still waiting on a child that finished
// at childEnd: the child ran until the parent's own end or nearly (the
// parent's last tenth: its wrap-up after the results came back). A running
// parent waits only on running children.
func heldUp(parent Span, childEnd int64) bool {
	if parent.Start == 0 || childEnd == running {
		return true
	}
	if parent.End == 0 {
		return false
	}
	return childEnd >= parent.End-(parent.End-parent.Start)/10
}

// Bar is a span placed on the chart: columns [From, To) of the chart's
// width, at least one column wide, from its first run's start to its last
// one's end; Cols are each run's columns, each at least one wide.
type Bar struct {
	Span
	From, To int
	Cols     [][2]int
}

// Tick is a scale mark at column Col.
type Tick struct {
	Col   int
	Label string
}

// Chart is the laid-out timeline.
type Chart struct {
	Bars       []Bar
	Ticks      []Tick
	Start, End int64 // the time the chart's columns cover, Unix ms
	Width      int
}

// steps are the round scale steps, in ms; past the last, a step is the
// last times a power of ten (see stepFor).
var steps = []int64{1e3, 2e3, 5e3, 10e3, 15e3, 30e3, 60e3, 120e3, 300e3, 600e3, 900e3, 1800e3, 3600e3, 7200e3,
	6 * 3600e3, 12 * 3600e3, 86400e3, 2 * 86400e3, 7 * 86400e3, 30 * 86400e3, 365 * 86400e3}

// maxTime bounds the times a chart is laid out on (about the year
// 10,900): a server's times are its own, and past this the arithmetic
// on columns would overflow.
const maxTime = int64(1) << 48

// Layout places spans on width columns, running ones up to nowMS, and
// picks the smallest round step that leaves at least 8 columns per tick:
// there are at most width/8+1 ticks, whatever the times.
func Layout(spans []Span, nowMS int64, width int) Chart {
	width = max(width, 1)
	nowMS = clampTime(nowMS)
	c := Chart{Width: width}
	endOf := func(s Span) int64 {
		if s.End == 0 {
			return nowMS
		}
		return clampTime(s.End)
	}
	for _, s := range spans {
		if s.Start == 0 {
			continue
		}
		if start := clampTime(s.Start); c.Start == 0 || start < c.Start {
			c.Start = start
		}
		c.End = max(c.End, endOf(s))
	}
	total := max(c.End-c.Start, 1)
	col := func(t int64) int { return int(float64(t-c.Start) * float64(width) / float64(total)) }
	cols := func(start, end int64) [2]int {
		from := min(max(col(clampTime(start)), 0), width-1)
		return [2]int{from, max(min(col(end), width), from+1)}
	}
	for _, s := range spans {
		b := Bar{Span: s}
		if s.Start != 0 {
			whole := cols(s.Start, endOf(s))
			b.From, b.To = whole[0], whole[1]
			for _, r := range s.Runs {
				b.Cols = append(b.Cols, cols(r.Start, endOf(Span{End: r.End})))
			}
			if len(s.Runs) == 0 {
				b.Cols = [][2]int{whole} // a span given without its runs: one
			}
		}
		c.Bars = append(c.Bars, b)
	}
	step := stepFor(total, width)
	for t := int64(0); t <= total && len(c.Ticks) <= width/8; t += step {
		c.Ticks = append(c.Ticks, Tick{Col: col(c.Start + t), Label: label(t)})
	}
	return c
}

// clampTime is t within [1, maxTime]: 0 stays 0, "never".
func clampTime(t int64) int64 {
	if t == 0 {
		return 0
	}
	return min(max(t, 1), maxTime)
}

// stepFor is the smallest round step that leaves at least 8 of width
// columns between two ticks over total ms.
func stepFor(total int64, width int) int64 {
	for _, st := range steps {
		if st*int64(width)/total >= 8 {
			return st
		}
	}
	st := steps[len(steps)-1]
	for st*int64(width)/total < 8 {
		st *= 10
	}
	return st
}

// label is a scale mark: "45s", "2m", "2m30s", "1h", "1h30m".
func label(ms int64) string {
	s := ms / 1000
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s%86400 == 0:
		return fmt.Sprintf("%dd", s/86400)
	case s%3600 == 0:
		return fmt.Sprintf("%dh", s/3600)
	case s >= 3600 && s%60 == 0:
		return fmt.Sprintf("%dh%dm", s/3600, s%3600/60)
	case s%60 == 0:
		return fmt.Sprintf("%dm", s/60)
	case s >= 3600:
		return fmt.Sprintf("%dh%dm%ds", s/3600, s%3600/60, s%60)
	}
	return fmt.Sprintf("%dm%02ds", s/60, s%60)
}
