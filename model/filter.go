package model

import "strings"

// Filter is a parsed `/` filter: status terms (is:running, is:waiting,
// is:failed, is:done; several mean any of them), agent:NAME, and free text
// (every word must appear in the title, agent or id). All parts must hold.
type Filter struct {
	Is    []Display // any of these; is:running covers busy and retry
	Done  bool      // is:done: idle after a run that ended cleanly
	Agent string    // lower case; exact agent name
	Words []string  // lower case
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
				f.Is = append(f.Is, DisplayBusy, DisplayRetry)
			case "waiting":
				f.Is = append(f.Is, DisplayWaiting)
			case "failed":
				f.Is = append(f.Is, DisplayError)
			case "done":
				f.Done = true
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
	return len(f.Is) == 0 && !f.Done && f.Agent == "" && len(f.Words) == 0 && len(f.Bad) == 0
}

// matches says whether the session itself passes the filter. A bad is:
// term matches nothing, so a typo shows an empty tree, not everything.
func (f Filter) matches(ss *Session) bool {
	if len(f.Bad) > 0 {
		return false
	}
	if len(f.Is) > 0 || f.Done {
		d := ss.display()
		ok := f.Done && d == DisplayIdle && ss.RunEnd > 0
		for _, want := range f.Is {
			ok = ok || d == want
		}
		if !ok {
			return false
		}
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
