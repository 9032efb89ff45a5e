package tree

import "github.com/octop-dev/octop/model"

// Tally counts the sessions the tree holds by state, for the header:
// every one (the model keeps that count up to date, see model.State.Tally),
// or with a filter the ones that match (Filtered says which). The root
// calls it once per batch, never per frame.
func (m Model) Tally() model.Counts {
	if m.filter == "" {
		return m.state.Tally()
	}
	var t model.Counts
	for _, r := range m.rows {
		if r.Match {
			m.state.CountIn(&t, r.ID)
		}
	}
	return t
}

// Busiest is the busy session that was active most recently, or "" when
// none is busy: what follow mode selects.
func (m Model) Busiest() string { return m.state.Busiest() }

// Filtered says the tree shows only a filter's matches.
func (m Model) Filtered() bool { return m.filter != "" }
