package tree

import "github.com/octop-dev/octop/model"

// Tally counts the sessions the tree holds by state, for the header:
// every one, or with a filter on the ones that match (Filtered says
// which). The root calls it once per batch, never per frame.
func (m Model) Tally() model.Counts {
	var t model.Counts
	add := func(id string) {
		t.Sessions++
		switch k := m.state.StateOf(id).Kind; {
		case k == model.KindRunning, k == model.KindRetrying, k == model.KindBackground:
			t.Running++
		case k == model.KindWaiting:
			t.Waiting++
		case k.Bad():
			t.Failed++
		}
	}
	if m.filter != "" {
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
		if m.state.StateOf(id).Kind == model.KindRunning && s.LastActive > bestAt {
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

// Filtered says the tree shows only a filter's matches.
func (m Model) Filtered() bool { return m.filter != "" }
