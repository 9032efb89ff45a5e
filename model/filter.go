package model

import (
	"slices"
	"strings"
)

// Filter is a parsed `/` filter: status terms (is:running, is:waiting,
// is:failed, is:aborted, is:done; several mean any of them), agent:NAME,
// and free text: what is typed apart from those terms, taken as one phrase
// (spaces folded), must begin the id (ses_…), or appear where a word
// starts in the agent or the title, as stored or as a row draws it
// ("worker 1 @general"), a number in it only as a whole number; case does
// not matter (see phraseIn). All parts must hold. The status is
// StateOf's: is:running covers running, retrying and waiting on background
// tasks, is:failed the bad ends (failed, interrupted, denied: the
// header's failed count), is:done a run that completed.
type Filter struct {
	Is    []Kind // any of these
	Agent string // lower case; exact agent name
	// Text is the free text as one phrase: lower case, words joined by
	// one space. `worker 1` keeps "worker 1", never "worker 10", nor
	// "worker 2" whose id happens to hold a 1.
	Text string
	// Bad lists the is: values not understood, so the ui can say so.
	Bad []string
}

// ParseFilter reads a filter line. Terms are split on spaces; is: and
// agent: are case-insensitive; the other words make the phrase.
func ParseFilter(line string) Filter {
	var f Filter
	var words []string
	for _, w := range strings.Fields(strings.ToLower(line)) {
		switch {
		case strings.HasPrefix(w, "is:"):
			switch v := strings.TrimPrefix(w, "is:"); v {
			case "running":
				f.Is = append(f.Is, KindRunning, KindRetrying, KindBackground)
			case "waiting":
				f.Is = append(f.Is, KindWaiting)
			case "failed":
				f.Is = append(f.Is, badKinds()...)
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
			words = append(words, w)
		}
	}
	f.Text = strings.Join(words, " ")
	return f
}

// Empty says the filter keeps everything.
func (f Filter) Empty() bool {
	return len(f.Is) == 0 && f.Agent == "" && f.Text == "" && len(f.Bad) == 0
}

// NeedsHistory says whether the filter reads what only a session's
// history tells: its state (is:), or its agent (agent:; the newest
// prompt names it, and 1.1 lists sessions without one). The phrase is
// matched against the id, title and agent the list gives.
func (f Filter) NeedsHistory() bool { return len(f.Is) > 0 || f.Agent != "" }

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
	return f.Text == "" || phraseIn(ss, f.Text)
}

// badKinds are the kinds Kind.Bad calls bad: what is:failed keeps, as
// the header counts it.
func badKinds() []Kind {
	var out []Kind
	for k := range Kind(len(kindWords)) {
		if k.Bad() {
			out = append(out, k)
		}
	}
	return out
}
