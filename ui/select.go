package ui

// SelectMsg asks the screen to select a session, unfolding its ancestors:
// the task an action just launched, or the task_id typed for a resume. The
// session may not have arrived through the stream yet; it is then selected
// as soon as it does.
type SelectMsg struct{ ID string }

// selectSession selects msg.ID now if the tree has it, else remembers it.
func (m Model) selectSession(msg SelectMsg) Model {
	m.pendingSelect = msg.ID
	m.applyPendingSelect()
	return m
}

// applyPendingSelect selects the remembered session once the tree shows
// it. Follow mode is switched off: the person asked to look at this one.
func (m *Model) applyPendingSelect() {
	if m.pendingSelect == "" || m.state.Session(m.pendingSelect) == nil {
		return
	}
	if m.tree.Select(m.pendingSelect) {
		m.pendingSelect = ""
		m.follow = false
		m.syncDetail()
	}
}
