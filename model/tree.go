package model

import "sort"

// ensure returns the session with that id, making a placeholder (Known
// false) when an event names a session before its session.created. It
// returns nil for an empty or deleted id.
func (s *State) ensure(id string) *Session {
	if id == "" {
		return nil
	}
	if ss := s.sessions[id]; ss != nil {
		return ss
	}
	if _, gone := s.deleted[id]; gone {
		return nil
	}
	ss := &Session{ID: id}
	s.sessions[id] = ss
	ss.idx = int32(len(s.list))
	s.list = append(s.list, ss)
	if s.fmarks != nil {
		s.fmarks = append(s.fmarks, fmark{})
	}
	s.treeV++
	s.queue(ss)
	s.adopt(ss)
	return ss
}

// adopt takes in the children that arrived before their parent.
func (s *State) adopt(parent *Session) {
	kids := s.orphans[parent.ID]
	if len(kids) == 0 {
		return
	}
	delete(s.orphans, parent.ID)
	for _, id := range kids {
		if c := s.sessions[id]; c != nil && c.ParentID == parent.ID && c.parent == nil {
			c.ParentID = parent.ID // one copy of the id, the parent's own
			s.insertChild(parent, c)
		}
	}
}

// setParent links child under parentID, wherever it was before. A link
// that would make a cycle is refused: the tree must stay a tree.
func (s *State) setParent(child *Session, parentID string) {
	if child.ParentID == parentID || parentID == child.ID {
		return
	}
	p := s.sessions[parentID]
	if p != nil && below(p, child) {
		return
	}
	s.unlinkFromParent(child)
	if p != nil {
		parentID = p.ID // one copy of the id, the parent's own
	}
	child.ParentID = parentID
	s.treeV++
	if parentID == "" {
		return
	}
	if p != nil {
		s.insertChild(p, child)
	} else {
		s.orphans[parentID] = append(s.orphans[parentID], child.ID)
	}
}

// below says p is top or in its subtree. It walks up from p and down from
// top by turns, and stops with whichever ends first: up alone costs the
// depth of p for every link, quadratic in a chain a server lists parent
// first (a hostile one's, a million deep), while such a list links
// sessions with no children yet, which the walk down ends at once.
func below(p, top *Session) bool {
	up := p
	down := []*Session{top}
	for up != nil && len(down) > 0 {
		if up == top {
			return true
		}
		up = up.parent
		next := down[len(down)-1]
		if next == p {
			return true
		}
		down = append(down[:len(down)-1], next.kids...)
	}
	return false
}

func (s *State) unlinkFromParent(child *Session) {
	if child.parent != nil {
		s.removeChild(child.parent, child)
		return
	}
	if kids := s.orphans[child.ParentID]; kids != nil {
		kids = removeString(kids, child.ID)
		if len(kids) == 0 {
			delete(s.orphans, child.ParentID)
		} else {
			s.orphans[child.ParentID] = kids
		}
	}
}

// insertChild keeps the children in creation order (ties by id), whatever order
// the events came in.
func (s *State) insertChild(p, c *Session) {
	if c.parent == p {
		return
	}
	i := sort.Search(len(p.kids), func(i int) bool { return childBefore(c, p.kids[i]) })
	p.kids = append(p.kids, nil)
	copy(p.kids[i+1:], p.kids[i:])
	p.kids[i] = c
	c.parent = p
	s.treeV++
	s.queue(p) // its rollups, and what its background calls follow
}

func (s *State) removeChild(p, c *Session) {
	for i, k := range p.kids {
		if k == c {
			p.kids = append(p.kids[:i], p.kids[i+1:]...)
			break
		}
	}
	c.parent = nil
	s.treeV++
	s.queue(p)
}

func childBefore(a, b *Session) bool {
	if a.Created != b.Created {
		return a.Created < b.Created
	}
	return a.ID < b.ID
}

// resortChild moves a child to its place after its creation time changed.
func (s *State) resortChild(c *Session) {
	if p := c.parent; p != nil {
		s.removeChild(p, c)
		s.insertChild(p, c)
	}
}

// remove deletes a session. Its children stay, as roots, until (if ever)
// their parent id is seen again.
func (s *State) remove(id string) {
	ss := s.sessions[id]
	s.deleted[id] = struct{}{}
	if ss == nil {
		return
	}
	s.unlinkFromParent(ss)
	s.uncount(ss)
	s.forgetStop(ss)
	delete(s.sessions, id)
	delete(s.undecodable, id)
	last := s.list[len(s.list)-1]
	s.list[ss.idx], last.idx = last, ss.idx
	s.list[len(s.list)-1] = nil
	s.list = s.list[:len(s.list)-1]
	if s.fmarks != nil {
		s.fmarks[ss.idx] = s.fmarks[len(s.fmarks)-1]
		s.fmarks = s.fmarks[:len(s.fmarks)-1]
	}
	for _, k := range ss.kids {
		k.parent = nil
		s.orphans[id] = append(s.orphans[id], k.ID)
	}
	ss.kids = nil
	for rid, p := range s.permissions {
		if p.SessionID == id {
			delete(s.permissions, rid)
		}
	}
	for rid, q := range s.questions {
		if q.SessionID == id {
			delete(s.questions, rid)
		}
	}
	s.treeV++
}

func removeString(xs []string, x string) []string {
	for i, y := range xs {
		if y == x {
			return append(xs[:i], xs[i+1:]...)
		}
	}
	return xs
}

// internStr returns a shared copy of a short, often repeated string.
func (s *State) internStr(v string) string {
	if v == "" {
		return ""
	}
	if w, ok := s.intern[v]; ok {
		return w
	}
	if len(s.intern) < 4096 {
		s.intern[v] = v
	}
	return v
}
