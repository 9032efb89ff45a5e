package model

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/wire"
)

// recording is one replay fixture: the raw events a real server sent
// (recorded by internal/dev/record) and its REST view at the end.
type recording struct {
	name  string
	datas [][]byte
	rest  client.RESTView
}

func loadRecordings(tb testing.TB) []recording {
	tb.Helper()
	files, _ := filepath.Glob("testdata/replay/*.jsonl")
	if len(files) == 0 {
		tb.Fatal("no replay fixtures in testdata/replay (record them with internal/dev/record)")
	}
	var out []recording
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			tb.Fatal(err)
		}
		recs, err := client.ReadRecording(r)
		r.Close()
		if err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		rest, err := os.Open(strings.TrimSuffix(f, ".jsonl") + ".rest.json")
		if err != nil {
			tb.Fatal(err)
		}
		view, err := client.ReadRESTView(rest)
		rest.Close()
		if err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		rec := recording{name: strings.TrimSuffix(filepath.Base(f), ".jsonl"), rest: view}
		for _, x := range recs {
			rec.datas = append(rec.datas, x.Data)
		}
		out = append(out, rec)
	}
	return out
}

func (r recording) snapshot() Snapshot {
	return Snapshot{Sessions: r.rest.Sessions, Status: r.rest.Status, Messages: r.rest.Messages, Complete: true}
}

// checkAgainstREST fails unless the state shows exactly what the REST view
// says: every session and no other, each parent, title and final status,
// every tool call with its status and child link, tokens, errors and the
// last reply.
func checkAgainstREST(t *testing.T, s *State, v client.RESTView) {
	t.Helper()
	checkInvariants(t, s)
	want := map[string]wire.Session{}
	for _, ss := range v.Sessions {
		want[ss.ID] = ss
	}
	if s.Len() != len(want) {
		var ids []string
		for id := range s.sessions {
			ids = append(ids, id)
		}
		t.Fatalf("state has %d sessions %v, REST %d", s.Len(), ids, len(want))
	}
	kids := map[string][]string{}
	for _, w := range v.Sessions {
		ss := s.Session(w.ID)
		if ss == nil {
			t.Fatalf("session %s missing", w.ID)
		}
		if !ss.Known || ss.ParentID != w.ParentID || ss.Title != w.Title || ss.Created != w.Time.Created {
			t.Errorf("%s: known %v parent %q title %q created %d; REST parent %q title %q created %d",
				w.ID, ss.Known, ss.ParentID, ss.Title, ss.Created, w.ParentID, w.Title, w.Time.Created)
		}
		if w.ParentID != "" {
			kids[w.ParentID] = append(kids[w.ParentID], w.ID)
		}
		st := v.Status[w.ID]
		wantRun := map[string]string{"": wire.StatusIdle, "idle": wire.StatusIdle, "busy": wire.StatusBusy, "retry": wire.StatusRetry}[st.Type]
		if runOf(ss) != wantRun {
			t.Errorf("%s: run %q, REST status %q", w.ID, ss.Run(), st.Type)
		}
		msgs := v.Messages[w.ID]
		var restKids []wire.Session
		for _, k := range v.Sessions {
			if k.ParentID == w.ID {
				restKids = append(restKids, k)
			}
		}
		checkTools(t, ss, msgs, restKids)
		checkTokens(t, ss, w, msgs)
		// The error a finished run ended with, and the last reply's text:
		// the state keeps only the end of the last text part (bounded);
		// REST gives every text part of the reply.
		restErr, restText := restReply(msgs)
		gotErr := ""
		if ss.Err != nil {
			gotErr = ss.Err.Name
		}
		if wantRun == wire.StatusIdle && gotErr != restErr {
			t.Errorf("%s: error %q, REST's last reply %q", w.ID, gotErr, restErr)
		}
		if !strings.HasSuffix(restText, ss.LastText()) {
			t.Errorf("%s: last text %q is not the end of REST's %q", w.ID, ss.LastText(), restText)
		}
		wantDisplay := DisplayIdle
		switch {
		case wantRun == wire.StatusBusy:
			wantDisplay = DisplayBusy
		case wantRun == wire.StatusRetry:
			wantDisplay = DisplayRetry
		case restErr != "" && restErr != "MessageAbortedError":
			wantDisplay = DisplayError
		}
		if d := s.display(w.ID); d != wantDisplay {
			t.Errorf("%s: display %d, want %d", w.ID, d, wantDisplay)
		}
		if restErr == "MessageAbortedError" && wantRun == wire.StatusIdle {
			if got := s.StateOf(w.ID); got.Kind != KindAborted || got.Reason != "aborted" {
				t.Errorf("%s: state %+v, want aborted", w.ID, got)
			}
		}
	}
	for id, ks := range kids {
		sort.Slice(ks, func(i, j int) bool { return childBefore(s.Session(ks[i]), s.Session(ks[j])) })
		if got := s.Session(id).ChildIDs(); !slices.Equal(got, ks) {
			t.Errorf("%s: children %v, REST %v", id, got, ks)
		}
	}
	var roots []string
	for _, w := range v.Sessions {
		if w.ParentID == "" {
			roots = append(roots, w.ID)
		}
	}
	if got := s.Roots(); len(got) != len(roots) {
		t.Errorf("roots %v, REST %v", got, roots)
	}
}

func childTitled(kids []wire.Session, desc string) string {
	for _, k := range kids {
		if desc != "" && strings.HasPrefix(k.Title, desc+" (@") {
			return k.ID
		}
	}
	return ""
}

func checkTools(t *testing.T, ss *Session, msgs []wire.MessageWithParts, kids []wire.Session) {
	t.Helper()
	var want []string
	for _, m := range msgs {
		for _, p := range m.Parts {
			if p.Type != wire.PartTool {
				continue
			}
			child := ""
			if p.Tool == "task" && p.State != nil {
				child = taskChild(p.State)
				if child == "" {
					// 1.1.x leaves an aborted call unlinked; its child is the
					// one the task tool titled after the call's description.
					child = childTitled(kids, inputDigest(p.State.Input))
				}
			}
			want = append(want, fmt.Sprintf("%s %s %d %s", p.ID, p.Tool, storedCall(p.State), child))
		}
	}
	var got []string
	for _, tc := range ss.Tools {
		child := tc.ChildID
		got = append(got, fmt.Sprintf("%s %s %d %s", tc.PartID, tc.Tool, tc.Status, child))
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s tools:\n got %q\nwant %q", ss.ID, got, want)
	}
}

func checkTokens(t *testing.T, ss *Session, info wire.Session, msgs []wire.MessageWithParts) {
	t.Helper()
	var tok, cost float64
	unpriced := 0 // replies with tokens and a cost of 0
	for _, m := range msgs {
		if m.Info.Role != "assistant" {
			continue
		}
		mt, mc := m.Info.Tokens.Sum(), m.Info.Cost
		if mt == 0 && mc == 0 {
			for _, p := range m.Parts {
				if p.Type == wire.PartStepFinish && p.Tokens != nil {
					mt += p.Tokens.Sum()
					mc += p.Cost
				}
			}
		}
		tok += mt
		cost += mc
		if mt > 0 && mc == 0 {
			unpriced++
		}
	}
	tok, cost = max(tok, info.Tokens.Sum()), max(cost, info.Cost)
	if ss.Tokens != tok || ss.Cost != cost || ss.OwnCost().Unpriced != unpriced {
		t.Errorf("%s: tokens %v cost %v unpriced %d, REST %v %v %d", ss.ID, ss.Tokens, ss.Cost, ss.OwnCost().Unpriced, tok, cost, unpriced)
	}
}

func replay(t testing.TB, datas [][]byte) *State {
	s := New()
	for _, ev := range decodeAll(t, datas) {
		s.Apply(ev)
	}
	return s
}

// TestReplay: each recorded stream, replayed into an empty state, gives
// exactly the server's REST view at the end; so does the REST view itself
// as a snapshot, over an empty or a live state, and a resync after the
// stream broke off half way.
func TestReplay(t *testing.T) {
	for _, rec := range loadRecordings(t) {
		t.Run(rec.name, func(t *testing.T) {
			t.Run("stream", func(t *testing.T) {
				checkAgainstREST(t, replay(t, rec.datas), rec.rest)
			})
			t.Run("snapshot", func(t *testing.T) {
				s := New()
				s.ApplySnapshot(rec.snapshot())
				checkAgainstREST(t, s, rec.rest)
			})
			t.Run("stream then snapshot", func(t *testing.T) {
				s := replay(t, rec.datas)
				before := canon(s)
				s.ApplySnapshot(rec.snapshot())
				checkAgainstREST(t, s, rec.rest)
				if after := canon(s); before != after {
					t.Errorf("a resync over the finished stream changed the state:\n%s\nvs\n%s", before, after)
				}
			})
			for _, cut := range []int{len(rec.datas) / 3, len(rec.datas) / 2, 2 * len(rec.datas) / 3} {
				t.Run(fmt.Sprintf("broken at %d then resync", cut), func(t *testing.T) {
					s := replay(t, rec.datas[:cut])
					s.ApplySnapshot(rec.snapshot())
					checkAgainstREST(t, s, rec.rest)
				})
			}
		})
	}
}

// shuffle interleaves the sessions' event sequences at random, keeping each
// session's own order (all the server guarantees), and repeats some events
// right after themselves.
func shuffle(evs []wire.Event, rng *rand.Rand, dupRate float64) []wire.Event {
	queues := map[string][]wire.Event{}
	var keys []string
	for _, ev := range evs {
		k := wire.SessionOf(ev)
		if _, ok := queues[k]; !ok {
			keys = append(keys, k)
		}
		queues[k] = append(queues[k], ev)
	}
	out := make([]wire.Event, 0, len(evs)*2)
	for len(keys) > 0 {
		i := rng.Intn(len(keys))
		q := queues[keys[i]]
		ev := q[0]
		out = append(out, ev)
		if rng.Float64() < dupRate {
			out = append(out, ev)
		}
		if len(q) == 1 {
			keys = append(keys[:i], keys[i+1:]...)
		} else {
			queues[keys[i]] = q[1:]
		}
	}
	return out
}

// TestShuffledReplay: any interleaving of the sessions' streams, with
// duplicates, ends in the same tree as the recorded order.
func TestShuffledReplay(t *testing.T) {
	iterations := 300
	if testing.Short() {
		iterations = 30
	}
	for _, rec := range loadRecordings(t) {
		t.Run(rec.name, func(t *testing.T) {
			evs := decodeAll(t, rec.datas)
			want := canon(apply(evs...))
			for seed := int64(1); seed <= int64(iterations); seed++ {
				rng := rand.New(rand.NewSource(seed))
				mixed := shuffle(evs, rng, 0.2)
				s := apply(mixed...)
				if got := canon(s); got != want {
					t.Fatalf("seed %d: the tree differs from the recorded order:\n%s\nwant:\n%s", seed, got, want)
				}
				if seed%50 == 0 {
					checkAgainstREST(t, s, rec.rest)
				}
			}
		})
	}
}

// restReply reads what REST says of a session's last reply: the error its
// newest assistant message ended with, and the text of the newest
// assistant message that has any (its text parts joined).
func restReply(msgs []wire.MessageWithParts) (errName, text string) {
	seenLast := false
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Info.Role != "assistant" {
			continue
		}
		if !seenLast {
			seenLast = true
			if m.Info.Error != nil {
				errName = m.Info.Error.Name
			}
		}
		var parts []string
		for _, p := range m.Parts {
			if p.Type == wire.PartText && p.Text != "" {
				parts = append(parts, p.Text)
			}
		}
		if len(parts) > 0 {
			return errName, strings.Join(parts, "\n")
		}
	}
	return errName, ""
}

// runOf is the session's run status.
func runOf(ss *Session) string { return ss.Run() }
