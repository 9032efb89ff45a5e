package model

import "sort"

// derive brings the subtree rollups (tokens, cost, unpriced replies,
// running descendants, latest activity) up to date once per version, so
// Counts and Subtree cost O(1) per row however often a frame asks: from
// the sessions that changed since (see tally.go) and their ancestors, or,
// after a snapshot, in one pass over the tree.
func (s *State) derive() {
	if s.aggV == s.version+1 {
		return
	}
	s.aggV = s.version + 1
	if s.deriveFull {
		s.deriveFull = false
		for _, ss := range s.deriveQ {
			ss.dq &^= qDerive
		}
		clear(s.deriveQ)
		s.deriveQ = s.deriveQ[:0]
		s.deriveAll()
		return
	}
	if len(s.deriveQ) == 0 {
		return
	}
	// The changed sessions and their ancestors, each once (an ancestor
	// already marked has its own ancestors marked too), recomputed from
	// their children deepest first.
	var nodes []*Session
	seen := make(map[*Session]bool, 2*len(s.deriveQ))
	for _, ss := range s.deriveQ {
		ss.dq &^= qDerive
		for a := ss; a != nil && !seen[a]; a = a.parent {
			seen[a] = true
			nodes = append(nodes, a)
		}
	}
	clear(s.deriveQ)
	s.deriveQ = s.deriveQ[:0]
	depth := make(map[*Session]int, len(nodes))
	for _, n := range nodes {
		d := 0
		for a := n.parent; a != nil; a = a.parent {
			d++
		}
		depth[n] = d
	}
	sort.Slice(nodes, func(i, j int) bool { return depth[nodes[i]] > depth[nodes[j]] })
	for _, n := range nodes {
		s.runTails(n)
		n.rollUp()
	}
}

// rollUp sets n's rollups from its own figures and its children's
// rollups, which are up to date.
func (n *Session) rollUp() {
	n.subTokens, n.subCost, n.runBelow, n.waitBelow = n.Tokens, n.Cost, 0, 0
	n.subUnpriced = n.unpriced
	n.subActive = n.LastActive
	for _, c := range n.kids {
		n.addBelow(c)
	}
}

// addBelow adds a child's rollups to n's.
func (n *Session) addBelow(c *Session) {
	n.subTokens += c.subTokens
	n.subCost += c.subCost
	n.subUnpriced += c.subUnpriced
	n.runBelow += c.runBelow
	n.waitBelow += c.waitBelow
	n.subActive = max(n.subActive, c.subActive)
	switch {
	case c.waiting > 0:
		n.waitBelow++ // blocked on the person, not working
	case c.Running():
		n.runBelow++
	}
}

// deriveAll rebuilds every rollup in one pass over the tree.
func (s *State) deriveAll() {
	for _, ss := range s.list {
		ss.subTokens, ss.subCost, ss.runBelow, ss.waitBelow = ss.Tokens, ss.Cost, 0, 0
		ss.subUnpriced = ss.unpriced
		ss.subActive = ss.LastActive
	}
	// Post-order over an explicit stack: a deep delegation chain must not
	// grow the goroutine stack without bound.
	type frame struct {
		ss   *Session
		next int
	}
	var stack []frame
	for _, ss := range s.list {
		if ss.parent != nil {
			continue
		}
		stack = append(stack[:0], frame{ss: ss})
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
			s.runTails(done) // its children's are set
			if p := done.parent; p != nil {
				p.addBelow(done)
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
		for i := len(ss.kids) - 1; i >= 0; i-- {
			stack = append(stack, item{ss.kids[i].ID, it.depth + 1})
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

// AbortPlan is what aborting the subtree rooted at id stops, in order:
// its busy or retrying descendants deepest first (BusyDescendants), then
// id itself if it runs. Aborting leaves before their parents means no
// parent sees a child's cancellation as a tool error it then acts on
// while still running. It is the one plan: the screen's X confirms it,
// --abort-on and `octop abort --tree` carry it out.
func (s *State) AbortPlan(id string) []string {
	plan := s.BusyDescendants(id)
	if ss := s.sessions[id]; ss != nil && ss.Running() {
		plan = append(plan, id)
	}
	return plan
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
		for i := len(ss.kids) - 1; i >= 0; i-- {
			stack = append(stack, ss.kids[i].ID)
		}
	}
	return out
}
