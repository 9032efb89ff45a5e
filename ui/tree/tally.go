package tree

import "github.com/octop-dev/octop/model"

// Tally is the header's figures over exactly the sessions the tree
// holds: every one, or with a filter on the ones that match. Failed is the
// bad ends (failed, interrupted, denied); aborted is not failed, someone
// chose it.
type Tally struct {
	Of                       int  // sessions counted
	Filtered                 bool // the tree shows only a filter's matches
	Running, Waiting, Failed int
}

// Tally counts the sessions the tree holds by state; the root calls it
// once per batch, never per frame.
func (m Model) Tally() Tally {
	var t Tally
	add := func(id string) {
		t.Of++
		switch m.state.Display(id) {
		case model.DisplayBusy, model.DisplayRetry:
			t.Running++
		case model.DisplayWaiting:
			t.Waiting++
		case model.DisplayError:
			t.Failed++
		}
	}
	if m.filter != "" {
		t.Filtered = true
		for _, r := range m.rows {
			if r.Match {
				add(r.ID)
			}
		}
		return t
	}
	m.walk(func(id string, _ *model.Session) { add(id) })
	return t
}

// Busiest is the busy session that was active most recently, or "" when
// none is busy: what follow mode selects.
func (m Model) Busiest() string {
	best, bestAt := "", int64(-1)
	m.walk(func(id string, s *model.Session) {
		if m.state.Display(id) == model.DisplayBusy && s.LastActive > bestAt {
			best, bestAt = id, s.LastActive
		}
	})
	return best
}

// walk visits every session reachable from the roots, folded or not.
func (m Model) walk(fn func(id string, s *model.Session)) {
	var visit func(id string)
	visit = func(id string) {
		s := m.state.Session(id)
		if s == nil {
			return
		}
		fn(id, s)
		for _, c := range s.Children {
			visit(c)
		}
	}
	for _, id := range m.state.Roots() {
		visit(id)
	}
}
