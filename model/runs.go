package model

import (
	"math"
	"sort"
)

// Run is one stretch of a session's work, with no idle time in it (Unix
// ms): from the prompt that started it to the last thing it did or the
// last end of a call it waited on. End is 0 while the run goes on.
//
// A session prompted again after it went idle (a resume) runs again; a
// message sent while it runs (a steer), and a background task's end
// notice, are part of the run going on. A run cut short (a crash, an
// abort) ends at the last thing it was seen doing; a task call lasts
// until the run of the child it started ends, and a background one until
// its child ends, so a child's run lies within its task call and that
// within its parent's run. An abort is an end of its own: a call it left
// open ends there, whatever the child went on doing.
type Run struct {
	Start, End int64
}

// runRec is a run as the session keeps it.
type runRec struct {
	start int64 // its prompt's creation (or the first time its messages name)
	end   int64 // the latest time its own messages, parts and calls name
	// tail is what derive sets: the latest end of the task calls it made,
	// as their children's runs set them; openEnd while one goes on.
	tail int64
}

// openEnd is the end of a run or call that goes on.
const openEnd = math.MaxInt64

// callLink is what the times need of a task call.
type callLink struct {
	child      string
	at         int64 // where it sits among the runs: its message's creation, else its start
	start, end int64
	open       bool // pending or running on the server
	follows    bool // a background launch that follows its child
	part, msg  string
}

// runAt is the index of the run holding time at: the last one started by
// then, or -1.
func runAt(runs []runRec, at int64) int {
	return sort.Search(len(runs), func(i int) bool { return runs[i].start > at }) - 1
}

// noteMsgTime notes that message msgID of the session did something at
// t: its run lasted at least until then.
func (ss *Session) noteMsgTime(msgID string, t int64) {
	if t <= 0 {
		return
	}
	ss.touch(t)
	at := t
	if a := ss.findMsg(msgID); a != nil {
		a.last = max(a.last, t)
		if a.created != 0 {
			at = a.created
		}
	}
	ss.extendRun(at, t)
}

// extendRun makes the run holding time at last until t at least; a time
// before every run known starts one of its own.
func (ss *Session) extendRun(at, t int64) {
	if at <= 0 {
		return
	}
	i := runAt(ss.runs, at)
	if i < 0 {
		ss.runs = insertAt(ss.runs, 0, runRec{start: at, end: max(at, t)})
		i = 0
	}
	ss.runs[i].end = max(ss.runs[i].end, t)
	ss.mergeFrom(i)
}

// promptAt starts a run at a prompt's creation, unless the prompt came
// while a run went on (it is part of that run).
func (ss *Session) promptAt(at int64) {
	if at <= 0 {
		return
	}
	i := runAt(ss.runs, at)
	if i >= 0 && at <= ss.runs[i].end {
		return
	}
	ss.runs = insertAt(ss.runs, i+1, runRec{start: at, end: at})
	ss.mergeFrom(i + 1)
}

// mergeFrom joins run i with the runs after it that it now reaches.
func (ss *Session) mergeFrom(i int) {
	r := ss.runs
	j := i + 1
	for j < len(r) && r[j].start <= r[i].end {
		r[i].end = max(r[i].end, r[j].end)
		j++
	}
	if j > i+1 {
		ss.runs = append(r[:i+1], r[j:]...)
	}
}

// rebuildRuns lays the runs out again from the messages and calls held,
// after a change that moves their bounds (a message removed, a prompt
// found to be a background task's notice, a history read). Runs that
// ended before the first message held (a session reopened after a seal,
// its history not read again yet) are kept.
func (ss *Session) rebuildRuns() {
	msgs := ss.rd().msgs
	if len(msgs) == 0 && len(ss.Tools) == 0 {
		return
	}
	first := int64(openEnd)
	for i := range msgs {
		if at := msgAt(&msgs[i]); at > 0 {
			first = min(first, at)
		}
	}
	kept := ss.runs[:0]
	for _, r := range ss.runs {
		if r.end < first {
			kept = append(kept, r)
		}
	}
	ss.runs = kept
	for i := range msgs {
		a := &msgs[i]
		if a.role == roleUser && !a.notice {
			ss.promptAt(a.created)
		}
		at := msgAt(a)
		ss.extendRun(at, max(at, a.last))
	}
	for i := range ss.Tools {
		t := &ss.Tools[i]
		at := ss.callAt(t.MessageID, t.Start)
		ss.extendRun(at, t.Start)
		ss.extendRun(at, t.End)
	}
}

// msgAt is when a message began, as far as the session knows.
func msgAt(a *msgAcct) int64 {
	if a.created != 0 {
		return a.created
	}
	return a.last
}

// callAt is where a call sits among the runs: its message's creation,
// else its own start.
func (ss *Session) callAt(msgID string, start int64) int64 {
	if a := ss.findMsg(msgID); a != nil && a.created != 0 {
		return a.created
	}
	return start
}
