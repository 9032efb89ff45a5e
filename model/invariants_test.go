package model

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// checkInvariants fails when the reducer's bookkeeping disagrees with the
// data it summarises: parent and child links, the pointer mirrors, the
// roots, the tool counters and the waiting counts.
func checkInvariants(t *testing.T, s *State) {
	t.Helper()
	if len(s.list) != len(s.sessions) {
		t.Fatalf("list has %d sessions, map %d", len(s.list), len(s.sessions))
	}
	for i, ss := range s.list {
		if int(ss.idx) != i || s.sessions[ss.ID] != ss {
			t.Fatalf("%s: list index %d, at %d", ss.ID, ss.idx, i)
		}
	}
	roots := map[string]bool{}
	for _, id := range s.Roots() {
		roots[id] = true
	}
	waiting := map[string]int32{}
	for _, p := range s.permissions {
		waiting[p.SessionID]++
	}
	for _, q := range s.questions {
		waiting[q.SessionID]++
	}
	for id, ss := range s.sessions {
		for i, k := range ss.kids {
			if k.parent != ss || k.ParentID != id || s.sessions[k.ID] != k {
				t.Fatalf("%s: child %d (%s) is not linked back", id, i, k.ID)
			}
			if i > 0 && !childBefore(ss.kids[i-1], k) {
				t.Fatalf("%s: children out of order: %v", id, ss.ChildIDs())
			}
		}
		if (ss.parent == nil) != roots[id] {
			t.Fatalf("%s: parent %v, in roots %v", id, ss.parent != nil, roots[id])
		}
		if ss.parent == nil && ss.ParentID != "" && s.sessions[ss.ParentID] != nil {
			t.Fatalf("%s: parent %s is known but not linked", id, ss.ParentID)
		}
		seen := map[*Session]bool{}
		for a := ss; a != nil; a = a.parent {
			if seen[a] {
				t.Fatalf("%s: cycle", id)
			}
			seen[a] = true
		}
		var open, done, failed int32
		for i, tc := range ss.Tools {
			if i > 0 && ss.Tools[i-1].PartID >= tc.PartID {
				t.Fatalf("%s: tools out of order", id)
			}
			switch tc.Status {
			case ToolPending, ToolRunning:
				open++
			case ToolCompleted:
				done++
			case ToolError:
				failed++
			}
		}
		if !ss.sealed() && (open != ss.nOpen || done != ss.nDone || failed != ss.nFailed) { // sealed: counts kept, calls gone
			t.Fatalf("%s: counters %d/%d/%d, tools say %d/%d/%d", id, ss.nOpen, ss.nDone, ss.nFailed, open, done, failed)
		}
		if ss.waiting != waiting[id] {
			t.Fatalf("%s: waiting %d, requests %d", id, ss.waiting, waiting[id])
		}
		for msgs, i := ss.rd().msgs, 1; i < len(msgs); i++ {
			if msgs[i-1].id >= msgs[i].id {
				t.Fatalf("%s: messages out of order", id)
			}
		}
	}
	checkKeptUp(t, s)
}

// checkKeptUp fails when the rollups and the counts, kept up to date from
// what changed (tally.go), disagree with a count over the whole tree.
func checkKeptUp(t *testing.T, s *State) {
	t.Helper()
	var want Counts
	for _, ss := range s.list {
		want.Sessions++
		switch k := StateOf(ss).Kind; {
		case k == KindRunning, k == KindRetrying, k == KindBackground:
			want.Running++
		case k == KindWaiting:
			want.Waiting++
		case k.Bad():
			want.Failed++
		}
		if ss.Known && !ss.historyRead {
			want.Unread++
		}
	}
	if got := s.Tally(); got != want {
		t.Fatalf("tally %+v, counted %+v", got, want)
	}
	var busiest *Session
	for _, ss := range s.list {
		if StateOf(ss).Kind == KindRunning && (busiest == nil || ss.LastActive > busiest.LastActive ||
			ss.LastActive == busiest.LastActive && ss.ID < busiest.ID) {
			busiest = ss
		}
	}
	if got := s.Busiest(); busiest != nil && got != busiest.ID || busiest == nil && got != "" {
		t.Fatalf("busiest %q, want %v", got, busiest)
	}
	s.derive()
	type roll struct {
		tok, cost float64
		run, wait int32
		unpriced  int32
		active    int64
	}
	var sub func(ss *Session) roll
	sub = func(ss *Session) roll {
		r := roll{ss.Tokens, ss.Cost, 0, 0, ss.unpriced, ss.LastActive}
		for _, c := range ss.kids {
			cr := sub(c)
			r.tok += cr.tok
			r.cost += cr.cost
			r.run += cr.run
			r.wait += cr.wait
			r.unpriced += cr.unpriced
			r.active = max(r.active, cr.active)
			switch {
			case c.waiting > 0:
				r.wait++
			case c.Running():
				r.run++
			}
		}
		return r
	}
	for _, ss := range s.list {
		got := roll{ss.subTokens, ss.subCost, ss.runBelow, ss.waitBelow, ss.subUnpriced, ss.subActive}
		if want := sub(ss); got != want {
			t.Fatalf("%s: rollups %+v, the subtree says %+v", ss.ID, got, want)
		}
	}
	checkRuns(t, s)
}

// checkRuns: the runs kept up to date from what changed are those a
// full pass finds, and no two runs of a session touch.
func checkRuns(t *testing.T, s *State) {
	t.Helper()
	kept := map[string][]Run{}
	for _, ss := range s.list {
		kept[ss.ID] = s.Runs(ss.ID)
	}
	s.deriveFull, s.aggV = true, 0 // the rollups only: the counts stay incremental
	for _, ss := range s.list {
		full := s.Runs(ss.ID)
		if !slices.Equal(full, kept[ss.ID]) {
			t.Fatalf("%s: runs %v, a full pass says %v", ss.ID, kept[ss.ID], full)
		}
		for i := 1; i < len(full); i++ {
			if full[i-1].End == 0 || full[i].Start <= full[i-1].End {
				t.Fatalf("%s: runs %v touch", ss.ID, full)
			}
		}
	}
}

// TestRandomEvents throws random sequences of every event type, over a
// small set of ids so they collide (re-parenting, deletes, removals,
// cycles attempted), with seals, history reads and background notices
// between them, and checks the invariants after each event: among them,
// that the counts kept up to date equal a recount.
func TestRandomEvents(t *testing.T) {
	ids := []string{"ses_a", "ses_b", "ses_c", "ses_d", "ses_e", "ses_f"}
	statuses := []string{"busy", "idle", "retry"}
	toolStates := []string{"pending", "running", "completed", "error"}
	for seed := int64(1); seed <= 200; seed++ {
		rng := rand.New(rand.NewSource(seed))
		pick := func(xs []string) string { return xs[rng.Intn(len(xs))] }
		s := New()
		for n := 0; n < 300; n++ {
			id := pick(ids)
			msg := fmt.Sprintf("msg_%d", rng.Intn(5))
			part := fmt.Sprintf("prt_%d", rng.Intn(8))
			var ev wire.Event
			switch rng.Intn(16) {
			case 0, 1:
				parent := ""
				if rng.Intn(3) > 0 {
					parent = pick(ids)
				}
				ev = created(id, parent, "t"+id, int64(rng.Intn(50)))
			case 2:
				ev = updated(id, pick(ids), "u"+id, int64(rng.Intn(50)), int64(rng.Intn(100)))
			case 3:
				if rng.Intn(4) == 0 {
					ev = wire.SessionDeleted{Info: wire.Session{ID: id}}
				} else {
					ev = status(id, pick(statuses))
				}
			case 4:
				ev = status(id, pick(statuses))
			case 5:
				ev = aborted(id)
			case 6:
				ev = asstMsg(id, msg, float64(rng.Intn(10)), 0.5, int64(rng.Intn(100)), int64(rng.Intn(100)))
			case 7:
				ev = userMsg(id, msg, int64(rng.Intn(100)))
			case 8, 9, 10:
				name := pick([]string{"bash", "task", "read"})
				kv := []any{"input", `{"description":"t` + pick(ids) + `","command":"x"}`}
				switch {
				case name == "task" && rng.Intn(3) == 0:
					// A background launch: the parent follows the child.
					kv = append(kv, "metadata", `{"sessionId":"`+pick(ids)+`","background":true}`)
				case name == "task" && rng.Intn(2) == 0:
					kv = append(kv, "metadata", `{"sessionId":"`+pick(ids)+`"}`)
				}
				ev = tool(id, msg, part, name, pick(toolStates), kv...)
			case 11:
				ev = wire.PartRemoved{SessionID: id, MessageID: msg, PartID: part}
			case 12:
				ev = wire.MessageRemoved{SessionID: id, MessageID: msg}
			case 13:
				if rng.Intn(2) == 0 {
					ev = text(id, msg, part, "hello", 1, int64(rng.Intn(2)))
				} else {
					ev = delta(id, msg, part, "more")
				}
			case 14:
				ev = step(id, msg, part, float64(rng.Intn(10)), 0.1)
			case 15:
				req := fmt.Sprintf("req_%d", rng.Intn(4))
				switch rng.Intn(4) {
				case 0:
					ev = wire.PermissionAsked{Request: wire.PermissionRequest{ID: req, SessionID: id}}
				case 1:
					ev = wire.PermissionReplied{SessionID: id, RequestID: req}
				case 2:
					ev = wire.QuestionAsked{Request: wire.QuestionRequest{ID: req, SessionID: id}}
				default:
					ev = wire.QuestionRejected{SessionID: id, RequestID: req}
				}
			}
			s.Apply(ev)
			switch rng.Intn(20) {
			case 0:
				s.Seal(pick(ids))
			case 1:
				s.SealIdle(pick(ids))
			case 2:
				x := pick(ids)
				s.ApplyMessages(map[string][]wire.MessageWithParts{x: randomHistory(rng, x, pick(ids))})
			case 3:
				s.Apply(notice(id, msg, part, pick(ids), pick([]string{"completed", "error"})))
			}
			if rng.Intn(50) == 0 {
				var snap Snapshot
				for _, x := range ids[:rng.Intn(len(ids))] {
					snap.Sessions = append(snap.Sessions, sess(x, pick(ids), "s"+x, int64(rng.Intn(50))))
				}
				snap.Complete = rng.Intn(2) == 0
				snap.Status = map[string]wire.SessionStatus{pick(ids): {Type: "busy"}}
				s.ApplySnapshot(snap)
			}
			checkInvariants(t, s)
			_ = Flatten(s, map[string]bool{"ses_a": true, "ses_b": true}, "")
			_ = Flatten(s, nil, "a")
			for _, x := range ids {
				_ = s.Counts(x)
				_ = s.BusyDescendants(x)
			}
		}
	}
}

// notice is a background task's end notice for child, as the server adds
// it to the parent: a synthetic text part.
func notice(sess, msg, part, child, state string) wire.Event {
	return wire.PartUpdated{Part: wire.Part{ID: part, SessionID: sess, MessageID: msg, Type: wire.PartText,
		Synthetic: true, Text: `<task id="` + child + `" state="` + state + `">` + "\n<summary>s</summary>\n</task>"}}
}

// randomHistory is a short message history of sess, as a read returns
// it: a prompt, a reply (finished or not), maybe a call that launched
// child in the background, maybe a notice.
func randomHistory(rng *rand.Rand, sess, child string) []wire.MessageWithParts {
	info := func(ev wire.Event) wire.Message { return ev.(wire.MessageUpdated).Info }
	part := func(ev wire.Event) wire.Part { return ev.(wire.PartUpdated).Part }
	h := []wire.MessageWithParts{{Info: info(userMsg(sess, "msg_0", 1))}}
	reply := wire.MessageWithParts{Info: info(asstMsg(sess, "msg_1", 2, 0.1, 2, int64(rng.Intn(2)*3)))}
	if rng.Intn(2) == 0 {
		reply.Parts = append(reply.Parts, part(tool(sess, "msg_1", "prt_0", "task",
			[]string{"running", "completed", "error"}[rng.Intn(3)], "input", `{"description":"t`+child+`"}`,
			"metadata", `{"sessionId":"`+child+`","background":true}`)))
	}
	h = append(h, reply)
	if rng.Intn(2) == 0 {
		h = append(h, wire.MessageWithParts{Info: info(userMsg(sess, "msg_2", 4)),
			Parts: []wire.Part{part(notice(sess, "msg_2", "prt_1", child, "completed"))}})
	}
	return h
}
