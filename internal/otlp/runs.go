package otlp

import (
	"sort"
	"strconv"

	"go.opentelemetry.io/otel/trace"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Each run of a session (model.Run) is an invoke_agent span of its own,
// with no idle time in it. A child's run hangs off the task call that
// started it, which lies within its parent's run (the model lasts a task
// call until the child's run ends, and a run until its calls end); a
// later run of a child (resumed by hand) hangs off its parent's run going
// on then, or, with none, starts a tree of its own in the trace, linked
// to the child's first run. What still goes on ends at the latest time
// the tree's messages name, so it nests too.

// RunSpanID is the span id of a session's run i: the first run's is the
// session's own (SpanIDFor(KindSession, id)), a later one's a hash of the
// session id and the run's index.
func RunSpanID(session string, i int) trace.SpanID {
	if i == 0 {
		return SpanIDFor(KindSession, session)
	}
	return SpanIDFor(KindRun, session+"/"+strconv.Itoa(i))
}

// latestTime is the latest time the tree's messages name: where what
// still goes on ends.
func latestTime(t Tree) int64 {
	var end int64
	for i := range t.Sessions {
		s := &t.Sessions[i]
		end = max(end, s.Created)
		for j := range s.Msgs {
			end = max(end, lastTime(&s.Msgs[j]))
		}
	}
	return end
}

// spanRuns is a session's runs as spans draw them: a run going on ends at
// latest; a session that never ran is one instant at its creation.
func spanRuns(s *Session, latest int64) []model.Run {
	if len(s.Runs) == 0 {
		return []model.Run{{Start: s.Created, End: s.Created}}
	}
	out := make([]model.Run, len(s.Runs))
	for i, r := range s.Runs {
		if r.End == 0 {
			r.End = max(latest, r.Start)
		}
		out[i] = r
	}
	return out
}

// runIndex is the run holding time at: the last one started by then, the
// first when none was.
func runIndex(runs []model.Run, at int64) int {
	return max(sort.Search(len(runs), func(i int) bool { return runs[i].Start > at })-1, 0)
}

// callTimes is when a tool call ran, as the model says (what still goes
// on ending at latest), else as its part says.
func (m *mapper) callTimes(s *Session, msg *wire.MessageWithParts, p *wire.Part) (start, end int64) {
	if c, ok := s.Calls[p.ID]; ok && c.Start != 0 {
		if c.End == 0 {
			return c.Start, max(m.latest, c.Start)
		}
		return c.Start, c.End
	}
	start, end = p.State.Time.Start, p.State.Time.End
	if start == 0 {
		start = msg.Info.Time.Created
	}
	if end == 0 {
		end = max(msg.Info.Time.Completed, lastTime(msg))
	}
	return start, end
}

// runParent is where session s's run i (r) hangs, and the span it links
// to when it hangs nowhere.
func (m *mapper) runParent(s *Session, i int, r model.Run) (parent, link trace.SpanID) {
	p := m.byID[s.ParentID]
	if p == nil {
		if i > 0 {
			link = RunSpanID(s.ID, 0)
		}
		return parent, link
	}
	if call := m.startedBy(p, s.ID, r.Start); call != "" {
		return SpanIDFor(KindPart, call), link
	}
	for j, pr := range m.runs[p.ID] {
		if pr.Start <= r.Start && r.Start <= pr.End {
			return RunSpanID(p.ID, j), link
		}
	}
	if i > 0 {
		return parent, RunSpanID(s.ID, 0)
	}
	return parent, RunSpanID(p.ID, 0)
}

// startedBy is the task call of parent p that started child's run at
// start: the latest call naming the child that began by then and was
// still going; "" when none did.
func (m *mapper) startedBy(p *Session, child string, start int64) string {
	best, bestStart := "", int64(-1)
	for part, c := range p.Calls {
		end := c.End
		if end == 0 {
			end = m.latest
		}
		if c.ChildID != child || !m.parts[part] || c.Start > start || end < start {
			continue
		}
		if c.Start > bestStart || c.Start == bestStart && part > best {
			best, bestStart = part, c.Start
		}
	}
	return best
}
