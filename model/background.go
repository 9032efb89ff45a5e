package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/octop-dev/octop/internal/wire"
)

// Background tasks (OpenCode 1.18 with background subagents): a task call
// that launched its child in the background completes at once, and the
// parent goes idle while the child runs. Such a call follows its child:
// it is running while the child runs, then takes the child's end, and the
// parent is waiting on it (KindBackground) until the child has ended and
// the parent has had, and answered, the child's end notice. Only the
// background tasks a session launched count: a child started any other
// way (`octop launch`, a foreground task) never makes its parent wait.

// noticeRef is an end notice the session received: which child, how it
// ended, and the message that carried it.
type noticeRef struct {
	msg, child string
	failed     bool
}

// maxNotices bounds the notices a session keeps (one per background
// child it launched).
const maxNotices = 1024

// isBackgroundCall says whether a task call's state marks it as launched
// in the background: metadata.background (also set on a foreground task
// moved to the background, whose input has no "background" key), or a
// completed output that opens with state="running".
func isBackgroundCall(st *wire.ToolState) bool {
	if len(st.Metadata) > 2 && bytes.Contains(st.Metadata, []byte(`"background"`)) {
		var md struct {
			Background bool `json:"background"`
		}
		if json.Unmarshal(st.Metadata, &md) == nil && md.Background {
			return true
		}
	}
	return st.Status == wire.ToolCompleted && TaskOutputState(st.Output) == "running"
}

// applyNotice records the end notice a synthetic text part carries, and
// keeps it out of the run's start: the parent's run began with the prompt
// that launched the tasks, not with the notice.
func (ss *Session) applyNotice(p *wire.Part) bool {
	if !p.Synthetic {
		return false
	}
	n, ok := ParseNotice(p.Text)
	if !ok {
		return false
	}
	a := ss.msg(p.MessageID)
	if a.role == roleUnknown {
		a.role = roleUser // a notice is a user message, whatever came first
	}
	if !a.notice {
		a.notice = true
		ss.recomputeRunStart()
		ss.rebuildRuns() // it was taken for a prompt
	}
	x := ss.more()
	for i := range x.notices {
		if x.notices[i].msg == p.MessageID && x.notices[i].child == n.ChildID {
			return true
		}
	}
	if len(x.notices) < maxNotices {
		x.notices = append(x.notices, noticeRef{msg: a.id, child: n.ChildID, failed: n.Failed()})
		sort.Slice(x.notices, func(i, j int) bool { return x.notices[i].msg < x.notices[j].msg })
	}
	return true
}

// recomputeRunStart is the creation time of the newest user message that
// is not an end notice (the session's creation when there is none).
func (ss *Session) recomputeRunStart() {
	msgs := ss.rd().msgs
	for i := len(msgs) - 1; i >= 0; i-- {
		if a := &msgs[i]; a.role == roleUser && !a.notice && a.created != 0 {
			ss.RunStart = a.created
			return
		}
	}
}

// noticeFor is the newest notice for child newer than message msg (the
// message of the call that launched it), or nil.
func (ss *Session) noticeFor(child, msg string) *noticeRef {
	notices := ss.rd().notices
	for i := len(notices) - 1; i >= 0; i-- {
		n := &notices[i]
		if n.msg <= msg {
			return nil
		}
		if n.child == child {
			return n
		}
	}
	return nil
}

// kid is the child with that id, or nil.
func (ss *Session) kid(id string) *Session {
	for _, k := range ss.kids {
		if k.ID == id {
			return k
		}
	}
	return nil
}

// follows says whether the call follows its child: a background launch
// that completed (one still launching, or refused, is an ordinary call).
func (t *ToolCall) follows() bool { return t.Background && t.Status == ToolCompleted }

// bgFollow is what a background call shows while following its child:
// its status, whether the parent still waits on it (the child runs, or
// ended with a notice still to come), and whether that cannot be told
// yet (the child's history is unread and no notice came).
type bgFollow struct {
	shown   ToolStatus
	open    bool
	unknown bool
}

func (ss *Session) follow(t *ToolCall) bgFollow {
	c := ss.kid(t.ChildID)
	n := ss.noticeFor(t.ChildID, t.MessageID)
	if c == nil {
		return noticeOr(n, bgFollow{shown: ToolRunning, open: true})
	}
	k := StateOf(c).Kind
	switch {
	case k.Live() || k == KindIdle:
		return bgFollow{shown: ToolRunning, open: true}
	case k == KindNotLoaded && !c.Known && !c.StatusKnown:
		// Launched, and nothing heard of the child since.
		return noticeOr(n, bgFollow{shown: ToolRunning, open: true})
	case k == KindNotLoaded:
		return noticeOr(n, bgFollow{shown: ToolRunning, unknown: true})
	case k == KindComplete:
		return bgFollow{shown: ToolCompleted, open: n == nil}
	case k == KindFailed || k == KindDenied:
		return bgFollow{shown: ToolError, open: n == nil}
	case k == KindInterrupted:
		return bgFollow{shown: ToolInterrupted}
	}
	return bgFollow{shown: ToolAborted} // no notice ever comes
}

// noticeOr is what a notice says of the child, or f without one.
func noticeOr(n *noticeRef, f bgFollow) bgFollow {
	switch {
	case n == nil:
		return f
	case n.failed:
		return bgFollow{shown: ToolError}
	}
	return bgFollow{shown: ToolCompleted}
}

// background counts the distinct children the session still waits on,
// and says whether some child's end cannot be told yet.
func (ss *Session) background() (open int, unknown bool) {
	if ss.nBg == 0 {
		return 0, false
	}
	var seen []string
	for i := range ss.Tools {
		t := &ss.Tools[i]
		if !t.follows() {
			continue
		}
		f := ss.follow(t)
		unknown = unknown || f.unknown
		if f.open && !contains(seen, t.ChildID) {
			seen = append(seen, t.ChildID)
		}
	}
	return len(seen), unknown
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// backgroundState is the state of a session idle while background tasks
// it launched run, or ok false when it waits on none.
func (ss *Session) backgroundState() (SessionState, bool) {
	open, unknown := ss.background()
	switch {
	case open > 0:
		return SessionState{Kind: KindBackground, Reason: ReasonBackground,
			Detail: fmt.Sprintf("waiting on %d background %s", open, plural(open, "task", "tasks"))}, true
	case unknown:
		return SessionState{Kind: KindNotLoaded}, true
	}
	return SessionState{}, false
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// LaunchedBackground says whether the session launched a background task
// (a call that follows its child), so a change to a child can change its
// state.
func (ss *Session) LaunchedBackground() bool { return ss.nBg > 0 }

// countBackground moves the session's following calls from the done
// count, where their stored status put them, to what they show.
func (ss *Session) countBackground(c *Counts) {
	for i := range ss.Tools {
		t := &ss.Tools[i]
		if !t.follows() {
			continue
		}
		c.ToolsDone--
		switch ss.follow(t).shown {
		case ToolRunning:
			c.ToolsRunning++
		case ToolCompleted:
			c.ToolsDone++
		case ToolInterrupted:
			c.ToolsInterrupted++
		case ToolAborted:
			c.ToolsAborted++
		default:
			c.ToolsFailed++
		}
	}
}

// touchFollowers marks the ancestors that follow ss through a background
// call as changed too, at version rev, so a view caching rows by
// SessionVersion draws them again, and the counts look at them again,
// when the child they wait on moves.
func (s *State) touchFollowers(ss *Session, rev uint64) {
	for p := ss.parent; p != nil && p.nBg > 0; p = p.parent {
		s.changed(p, rev)
	}
}
