package model

import "slices"

// SortKey orders sibling sessions in Flatten's rows.
type SortKey int

// The sort keys, in the order the ui cycles through them. Every key but
// SortNewest puts the largest first and reads the subtree (a parent that
// waits on a busy child is as active as the child); ties keep the newest
// order.
const (
	SortNewest   SortKey = iota // roots newest first, children in creation order
	SortActivity                // latest activity anywhere in the subtree
	SortDuration                // how long the session has run (Elapsed)
	SortTokens                  // subtree tokens
	SortCost                    // subtree cost
	numSortKeys
)

// String is the key's name as the header shows it.
func (k SortKey) String() string {
	switch k {
	case SortActivity:
		return "last activity"
	case SortDuration:
		return "duration"
	case SortTokens:
		return "tokens"
	case SortCost:
		return "cost"
	}
	return "newest"
}

// NeedsHistory says whether the order reads what only a session's
// history tells: every key but SortNewest (the list's time.updated moves
// on a rename too, and 1.1 lists no tokens or cost).
func (k SortKey) NeedsHistory() bool { return k != SortNewest }

// Next is the key after k, back to SortNewest after the last.
func (k SortKey) Next() SortKey { return (k + 1) % numSortKeys }

// sortValue is what k ranks a session by, largest first.
func (s *State) sortValue(ss *Session, k SortKey, nowMS int64) float64 {
	switch k {
	case SortActivity:
		return float64(ss.subActive)
	case SortDuration:
		return float64(s.Elapsed(ss.ID, nowMS))
	case SortTokens:
		return ss.subTokens
	case SortCost:
		return ss.subCost
	}
	return 0
}

// sorted returns sessions in k's order: the slice itself for SortNewest
// (no copy), else a sorted copy.
func (s *State) sorted(list []*Session, k SortKey, nowMS int64) []*Session {
	if k == SortNewest || len(list) < 2 {
		return list
	}
	s.derive()
	out := slices.Clone(list)
	slices.SortStableFunc(out, func(a, b *Session) int {
		va, vb := s.sortValue(a, k, nowMS), s.sortValue(b, k, nowMS)
		switch {
		case va > vb:
			return -1
		case va < vb:
			return 1
		}
		return 0
	})
	return out
}
