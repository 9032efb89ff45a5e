package model

// derive rebuilds the subtree rollups (tokens, cost, running descendants,
// latest activity) once per version, in one pass over the tree, so Counts
// and Subtree cost O(1) per row however often a frame asks.
func (s *State) derive() {
	if s.aggV == s.version+1 {
		return
	}
	s.aggV = s.version + 1
	for _, ss := range s.list {
		ss.subTokens, ss.subCost, ss.runBelow, ss.waitBelow = ss.Tokens, ss.Cost, 0, 0
		ss.subActive, ss.subRun = ss.LastActive, ss.lastRun
	}
	// Post-order over an explicit stack: a deep delegation chain must not
	// grow the goroutine stack without bound.
	type frame struct {
		ss   *Session
		next int
	}
	var stack []frame
	for _, r := range s.Roots() {
		stack = append(stack[:0], frame{ss: s.sessions[r]})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(top.ss.kids) {
				c := top.ss.kids[top.next]
				top.next++
				stack = append(stack, frame{ss: c})
				continue
			}
			done := top.ss
			stack = stack[:len(stack)-1]
			if p := done.parent; p != nil {
				p.subTokens += done.subTokens
				p.subCost += done.subCost
				p.runBelow += done.runBelow
				p.waitBelow += done.waitBelow
				p.subActive = max(p.subActive, done.subActive)
				p.subRun = max(p.subRun, done.subRun)
				switch {
				case done.waiting > 0:
					p.waitBelow++ // blocked on the person, not working
				case done.Running():
					p.runBelow++
				}
			}
		}
	}
}

// BusyDescendants returns the busy or retrying sessions below id (id
// itself excluded), deepest first, so aborting them in order never leaves
// a child running under a stopped parent. Only id's subtree is visited.
func (s *State) BusyDescendants(id string) []string {
	root := s.sessions[id]
	if root == nil {
		return nil
	}
	type item struct {
		id    string
		depth int
	}
	var found []item
	stack := []item{{id, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ss := s.sessions[it.id]
		if ss == nil {
			continue
		}
		if it.id != id && ss.Running() {
			found = append(found, item{it.id, it.depth})
		}
		for i := len(ss.Children) - 1; i >= 0; i-- {
			stack = append(stack, item{ss.Children[i], it.depth + 1})
		}
	}
	// Stable: equal depths keep tree (creation) order.
	out := make([]string, 0, len(found))
	maxDepth := 0
	for _, f := range found {
		maxDepth = max(maxDepth, f.depth)
	}
	for d := maxDepth; d >= 1; d-- {
		for _, f := range found {
			if f.depth == d {
				out = append(out, f.id)
			}
		}
	}
	return out
}

// SubtreeIDs returns every session at or below id, parent before child,
// children in creation order.
func (s *State) SubtreeIDs(id string) []string {
	if s.sessions[id] == nil {
		return nil
	}
	var out []string
	stack := []string{id}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ss := s.sessions[cur]
		if ss == nil {
			continue
		}
		out = append(out, cur)
		for i := len(ss.Children) - 1; i >= 0; i-- {
			stack = append(stack, ss.Children[i])
		}
	}
	return out
}
