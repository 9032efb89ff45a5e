package model

import (
	"slices"
	"strings"
)

// Filter is a parsed `/` filter: status terms (is:running, is:waiting,
// is:failed, is:aborted, is:done; several mean any of them), agent:NAME,
// and free text (every word must appear in the title, agent or id). All
// parts must hold. The status is StateOf's: is:running covers running,
// retrying and waiting on background tasks, is:failed the bad ends (failed, interrupted, denied: the
// header's failed count), is:done a run that completed.
type Filter struct {
	Is    []Kind   // any of these
	Agent string   // lower case; exact agent name
	Words []string // lower case
	// Bad lists the is: values not understood, so the ui can say so.
	Bad []string
}

// ParseFilter reads a filter line. Terms are split on spaces; is: and
// agent: are case-insensitive.
func ParseFilter(line string) Filter {
	var f Filter
	for _, w := range strings.Fields(strings.ToLower(line)) {
		switch {
		case strings.HasPrefix(w, "is:"):
			switch v := strings.TrimPrefix(w, "is:"); v {
			case "running":
				f.Is = append(f.Is, KindRunning, KindRetrying, KindBackground)
			case "waiting":
				f.Is = append(f.Is, KindWaiting)
			case "failed":
				f.Is = append(f.Is, KindFailed, KindInterrupted, KindDenied)
			case "aborted":
				f.Is = append(f.Is, KindAborted)
			case "done":
				f.Is = append(f.Is, KindComplete)
			default:
				f.Bad = append(f.Bad, w)
			}
		case strings.HasPrefix(w, "agent:") && len(w) > len("agent:"):
			f.Agent = strings.TrimPrefix(w, "agent:")
		default:
			f.Words = append(f.Words, w)
		}
	}
	return f
}

// Empty says the filter keeps everything.
func (f Filter) Empty() bool {
	return len(f.Is) == 0 && f.Agent == "" && len(f.Words) == 0 && len(f.Bad) == 0
}

// matches says whether the session itself passes the filter. A bad is:
// term matches nothing, so a typo shows an empty tree, not everything.
func (f Filter) matches(ss *Session) bool {
	if len(f.Bad) > 0 {
		return false
	}
	if len(f.Is) > 0 && !slices.Contains(f.Is, StateOf(ss).Kind) {
		return false
	}
	if f.Agent != "" && strings.ToLower(ss.Agent) != f.Agent {
		return false
	}
	for _, w := range f.Words {
		if !strings.Contains(ss.search, w) {
			return false
		}
	}
	return true
}
