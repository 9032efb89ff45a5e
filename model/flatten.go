package model

// Flatten gives the visible rows: roots newest first, children in creation
// order, descending only into expanded sessions. A non-empty filter (see
// ParseFilter: is:running|waiting|failed|done, agent:NAME, and a phrase
// the title or agent must hold at a word's start or the id begin with,
// case-insensitive)
// keeps the sessions that match and the ancestors of every match,
// expanded so the match shows.
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
	rootIDs := s.Roots()
	if len(rootIDs) == 0 {
		return nil
	}
	roots := make([]*Session, len(rootIDs))
	for i, id := range rootIDs {
		roots[i] = s.sessions[id]
	}
	roots = s.sorted(roots, v.Sort, v.NowMS)
	f := ParseFilter(v.Filter)
	w := flattener{s: s, v: v, filtered: !f.Empty()}
	capRows := len(s.list)
	if w.filtered {
		capRows = s.markFilter(f)
	}
	w.ep = s.fepoch
	// Sized once: growing a 10,000-row slice by doubling costs more than
	// the walk itself.
	w.rows = make([]Row, 0, capRows)
	w.guides = make([]bool, 0, 4*capRows)
	lastRoot := -1
	for i := len(roots) - 1; i >= 0; i-- {
		if w.visible(roots[i]) {
			lastRoot = i
			break
		}
	}
	for ri := 0; ri <= lastRoot; ri++ {
		if w.visible(roots[ri]) {
			w.walk(roots[ri], ri == lastRoot)
		}
	}
	return w.rows
}

// flattener is one FlattenView under way: the rows so far, the shared
// array behind their Guides, and the path and stack of the walk.
type flattener struct {
	s        *State
	v        View
	filtered bool
	ep       uint32 // the filter's mark epoch (see markFilter)
	rows     []Row
	guides   []bool
	path     []bool // path[d]: the ancestor at depth d has visible siblings below
	stack    []frame
}

// frame is a session the walk is inside of.
type frame struct {
	ss   *Session
	kids []*Session // ss's children in the view's order
	next int        // next child index to look at
	last int        // index of the last visible child
}

func (w *flattener) visible(ss *Session) bool { return !w.filtered || w.s.fmarks[ss.idx].mark == w.ep }

// walk emits a root and the rows below it, depth first, without recursion.
func (w *flattener) walk(root *Session, lastRoot bool) {
	w.path = append(w.path[:0], !lastRoot)
	w.stack = append(w.stack[:0], w.emit(root, 0, lastRoot))
	for len(w.stack) > 0 {
		top := &w.stack[len(w.stack)-1]
		if top.next > top.last {
			w.stack = w.stack[:len(w.stack)-1]
			continue
		}
		i := top.next
		top.next++
		c := top.kids[i]
		if !w.visible(c) {
			continue
		}
		depth := len(w.stack)
		isLast := i == top.last
		w.path = append(w.path[:depth], !isLast)
		w.stack = append(w.stack, w.emit(c, depth, isLast))
	}
}

// emit appends ss's row and returns its frame, with the children the
// walk goes into: under a filter exactly the ancestors of matches, else
// those of an expanded session.
func (w *flattener) emit(ss *Session, depth int, last bool) frame {
	f := frame{ss: ss, last: -1}
	open := false
	switch {
	case len(ss.kids) == 0:
	case w.filtered:
		if w.s.hasMarkedKid(ss, w.ep) {
			f.kids = w.s.sorted(ss.kids, w.v.Sort, w.v.NowMS)
		}
		for i := len(f.kids) - 1; i >= 0; i-- {
			if w.s.fmarks[f.kids[i].idx].mark == w.ep {
				f.last, open = i, true
				break
			}
		}
	case w.v.Expanded[ss.ID]:
		f.kids = w.s.sorted(ss.kids, w.v.Sort, w.v.NowMS)
		f.last, open = len(f.kids)-1, true
	}
	from := max(depth-MaxGuides, 0)
	if cap(w.guides)-len(w.guides) < depth-from {
		w.guides = make([]bool, 0, 4096)
	}
	start := len(w.guides)
	w.guides = append(w.guides, w.path[from:depth]...)
	w.rows = append(w.rows, Row{
		ID:          ss.ID,
		Depth:       int32(depth),
		HasChildren: len(ss.kids) > 0,
		Expanded:    open,
		Last:        last,
		Guides:      w.guides[start:len(w.guides):len(w.guides)],
		Match:       !w.filtered || w.s.fmarks[ss.idx].match == w.ep,
	})
	return f
}

// fmark is a session's Flatten marks: the epoch it was last marked as
// shown (a match or an ancestor of one) and as a match itself.
type fmark struct{ mark, match uint32 }

// markFilter stamps the sessions that match and their ancestors with a new
// epoch, instead of building a set per call. It returns how many it marked.
// The marks live beside the list, made by the first filter: a tree never
// filtered keeps none.
func (s *State) markFilter(f Filter) int {
	if len(s.fmarks) != len(s.list) {
		s.fmarks = make([]fmark, len(s.list))
	}
	s.fepoch++
	if s.fepoch == 0 { // wrapped: clear old stamps so none look current
		clear(s.fmarks)
		s.fepoch = 1
	}
	ep := s.fepoch
	n := 0
	for _, ss := range s.list {
		if !f.matches(ss) {
			continue
		}
		s.fmarks[ss.idx].match = ep
		for a := ss; a != nil && s.fmarks[a.idx].mark != ep; a = a.parent {
			s.fmarks[a.idx].mark = ep
			n++
		}
	}
	return n
}

func (s *State) hasMarkedKid(ss *Session, ep uint32) bool {
	for _, c := range ss.kids {
		if s.fmarks[c.idx].mark == ep {
			return true
		}
	}
	return false
}
