package model

// Flatten gives the visible rows: roots newest first, children in creation
// order, descending only into expanded sessions. A non-empty filter (see
// ParseFilter: is:running|waiting|failed|done, agent:NAME, free words that
// the title, agent or id must contain, case-insensitive) keeps the
// sessions that match and the ancestors of every match, expanded so the
// match shows.
//
// It allocates the rows and one shared array behind all their Guides, and
// nothing per session, so calling it every frame is fine (see the
// benchmarks in doc.go). It uses scratch marks inside the State: call it
// from the goroutine that owns the State.
func Flatten(s *State, expanded map[string]bool, filter string) []Row {
	return FlattenView(s, View{Expanded: expanded, Filter: filter})
}

// View is what Flatten shows: which sessions are expanded, the filter, and
// the order of siblings (NowMS is the time SortDuration measures to).
type View struct {
	Expanded map[string]bool
	Filter   string
	Sort     SortKey
	NowMS    int64
}

// FlattenView is Flatten with siblings (roots included) in v.Sort's order.
// Sorting copies only the children of the sessions it descends into.
func FlattenView(s *State, v View) []Row {
	filter, expanded := v.Filter, v.Expanded
	rootIDs := s.Roots()
	if len(rootIDs) == 0 {
		return nil
	}
	roots := make([]*Session, len(rootIDs))
	for i, id := range rootIDs {
		roots[i] = s.sessions[id]
	}
	roots = s.sorted(roots, v.Sort, v.NowMS)
	f := ParseFilter(filter)
	filtered := !f.Empty()
	capRows := len(s.list)
	if filtered {
		capRows = s.markFilter(f)
	}
	ep := s.fepoch
	visible := func(ss *Session) bool { return !filtered || ss.fmark == ep }

	// Sized once: growing a 10,000-row slice by doubling costs more than
	// the walk itself.
	rows := make([]Row, 0, capRows)
	guides := make([]bool, 0, 4*capRows)
	var path []bool // path[d]: the ancestor at depth d has visible siblings below

	type frame struct {
		ss   *Session
		kids []*Session // ss's children in the view's order
		next int        // next child index to look at
		last int        // index of the last visible child
	}
	var stack []frame

	emit := func(ss *Session, depth int, last bool) frame {
		f := frame{ss: ss, last: -1}
		open := false
		switch {
		case len(ss.kids) == 0:
		case filtered:
			// Descend exactly into the ancestors of matches.
			if hasMarkedKid(ss, ep) {
				f.kids = s.sorted(ss.kids, v.Sort, v.NowMS)
			}
			for i := len(f.kids) - 1; i >= 0; i-- {
				if f.kids[i].fmark == ep {
					f.last, open = i, true
					break
				}
			}
		case expanded[ss.ID]:
			f.kids = s.sorted(ss.kids, v.Sort, v.NowMS)
			f.last, open = len(f.kids)-1, true
		}
		if cap(guides)-len(guides) < depth {
			guides = make([]bool, 0, max(4096, 2*depth))
		}
		start := len(guides)
		guides = append(guides, path[:depth]...)
		rows = append(rows, Row{
			ID:          ss.ID,
			Depth:       depth,
			HasChildren: len(ss.Children) > 0,
			Expanded:    open,
			Last:        last,
			Guides:      guides[start:len(guides):len(guides)],
			Match:       !filtered || ss.fmatch == ep,
		})
		return f
	}

	lastRoot := -1
	for i := len(roots) - 1; i >= 0; i-- {
		if visible(roots[i]) {
			lastRoot = i
			break
		}
	}
	for ri := 0; ri <= lastRoot; ri++ {
		r := roots[ri]
		if !visible(r) {
			continue
		}
		path = append(path[:0], ri != lastRoot)
		stack = append(stack[:0], emit(r, 0, ri == lastRoot))
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next > top.last {
				stack = stack[:len(stack)-1]
				continue
			}
			i := top.next
			top.next++
			c := top.kids[i]
			if !visible(c) {
				continue
			}
			depth := len(stack)
			isLast := i == top.last
			path = append(path[:depth], !isLast)
			stack = append(stack, emit(c, depth, isLast))
		}
	}
	return rows
}

// markFilter stamps the sessions that match and their ancestors with a new
// epoch, instead of building a set per call. It returns how many it marked.
func (s *State) markFilter(f Filter) int {
	s.fepoch++
	if s.fepoch == 0 { // wrapped: clear old stamps so none look current
		for _, ss := range s.list {
			ss.fmark, ss.fmatch = 0, 0
		}
		s.fepoch = 1
	}
	ep := s.fepoch
	n := 0
	for _, ss := range s.list {
		if !f.matches(ss) {
			continue
		}
		ss.fmatch = ep
		for a := ss; a != nil && a.fmark != ep; a = a.parent {
			a.fmark = ep
			n++
		}
	}
	return n
}

func hasMarkedKid(ss *Session, ep uint32) bool {
	for _, c := range ss.kids {
		if c.fmark == ep {
			return true
		}
	}
	return false
}
