package model

import "strings"

// Flatten gives the visible rows: roots newest first, children in creation
// order, descending only into expanded sessions. A non-empty filter keeps
// the sessions whose title, agent or id contains it (case-insensitive) and
// the ancestors of every match, expanded so the match shows.
//
// It allocates the rows and one shared array behind all their Guides, and
// nothing per session, so calling it every frame is fine (see the
// benchmarks in doc.go). It uses scratch marks inside the State: call it
// from the goroutine that owns the State.
func Flatten(s *State, expanded map[string]bool, filter string) []Row {
	roots := s.Roots()
	if len(roots) == 0 {
		return nil
	}
	filtered := filter != ""
	if filtered {
		s.markFilter(strings.ToLower(filter))
	}
	ep := s.fepoch
	visible := func(ss *Session) bool { return !filtered || ss.fmark == ep }

	rows := make([]Row, 0, min(len(s.sessions), 1024))
	guides := make([]bool, 0, 1024)
	var path []bool // path[d]: the ancestor at depth d has visible siblings below

	type frame struct {
		ss   *Session
		next int // next child index to look at
		last int // index of the last visible child
	}
	var stack []frame

	emit := func(ss *Session, depth int, last bool) frame {
		f := frame{ss: ss, last: -1}
		open := expanded[ss.ID]
		if filtered {
			open = false
		}
		for i := len(ss.Children) - 1; i >= 0; i-- {
			c := s.sessions[ss.Children[i]]
			if c != nil && visible(c) {
				f.last = i
				if filtered {
					open = true
				}
				break
			}
		}
		if !open {
			f.last = -1 // not descending
		}
		if cap(guides)-len(guides) < depth {
			guides = make([]bool, 0, max(1024, 2*depth))
		}
		start := len(guides)
		guides = append(guides, path[:depth]...)
		rows = append(rows, Row{
			ID:          ss.ID,
			Depth:       depth,
			HasChildren: len(ss.Children) > 0,
			Expanded:    open && len(ss.Children) > 0,
			Last:        last,
			Guides:      guides[start:len(guides):len(guides)],
			Match:       !filtered || ss.fmatch == ep,
		})
		return f
	}

	lastRoot := -1
	for i := len(roots) - 1; i >= 0; i-- {
		if visible(s.sessions[roots[i]]) {
			lastRoot = i
			break
		}
	}
	for ri := 0; ri <= lastRoot; ri++ {
		r := s.sessions[roots[ri]]
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
			c := s.sessions[top.ss.Children[i]]
			if c == nil || !visible(c) {
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
// epoch, instead of building a set per call.
func (s *State) markFilter(f string) {
	s.fepoch++
	if s.fepoch == 0 { // wrapped: clear old stamps so none look current
		for _, ss := range s.sessions {
			ss.fmark, ss.fmatch = 0, 0
		}
		s.fepoch = 1
	}
	ep := s.fepoch
	for _, ss := range s.sessions {
		if !strings.Contains(ss.search, f) {
			continue
		}
		ss.fmatch = ep
		for a := ss; a != nil && a.fmark != ep; a = s.sessions[a.ParentID] {
			a.fmark = ep
			if a.ParentID == "" {
				break
			}
		}
	}
}
