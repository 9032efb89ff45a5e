package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// The scale fixtures are one root, one child and one child's history as
// internal/dev/scaleserver serves them (OpenCode 1.18.33's shapes): a
// 1.18 session carries its tokens and cost; a history is a prompt and a
// reply with three bash calls (~4 KB of JSON).
const (
	scaleRootID  = "ses_e9921801dffeUIpGYcbQQ8U0fe"
	scaleChildID = "ses_e99216bcaffemsmQKN5lxnwRt4"
	scaleKids    = 9 // children per root, as the fake serves them
)

type scaleFixture struct{ root, child, history []byte }

func loadScaleFixture(tb testing.TB) scaleFixture {
	tb.Helper()
	var f scaleFixture
	for _, x := range []struct {
		dst  *[]byte
		name string
	}{{&f.root, "root"}, {&f.child, "child"}, {&f.history, "history"}} {
		b, err := os.ReadFile("testdata/scale/" + x.name + ".json")
		if err != nil {
			tb.Fatal(err)
		}
		*x.dst = b
	}
	return f
}

// scaleID is session i's id: as long as OpenCode's, newer sorting first.
func scaleID(i int) string { return fmt.Sprintf("ses_%012x%014d", 0xffffffffffff-i, i) }

// sessions decodes n sessions in families of a root and scaleKids
// children, each from the fixture's JSON with its ids put in, so every
// string is its own allocation as a real list's are.
func (f scaleFixture) sessions(tb testing.TB, n int) []wire.Session {
	tb.Helper()
	out := make([]wire.Session, n)
	root := ""
	for i := range n {
		src := f.child
		if i%(scaleKids+1) == 0 {
			src, root = f.root, scaleID(i)
		}
		b := bytes.ReplaceAll(src, []byte(scaleChildID), []byte(scaleID(i)))
		b = bytes.ReplaceAll(b, []byte(scaleRootID), []byte(root))
		if err := json.Unmarshal(b, &out[i]); err != nil {
			tb.Fatal(err)
		}
		out[i].Time.Created -= int64(i) * 1000
		out[i].Time.Updated -= int64(i) * 1000
	}
	return out
}

// historyOf decodes the fixture's history as session id's.
func (f scaleFixture) historyOf(tb testing.TB, id string) []wire.MessageWithParts {
	tb.Helper()
	var msgs []wire.MessageWithParts
	if err := json.Unmarshal(bytes.ReplaceAll(f.history, []byte(scaleChildID), []byte(id)), &msgs); err != nil {
		tb.Fatal(err)
	}
	return msgs
}

// scaleCost is what a session costs the model at scale, in bytes of
// live heap per session: listed, what reading its history whole adds,
// and what that adds once sealed; calls is how many tool calls the
// histories held.
type scaleCost struct {
	listed, history, sealed float64
	calls                   int
}

// perCall is what one tool call of a history read whole costs.
func (c scaleCost) perCall(n int) float64 { return c.history * float64(n) / float64(c.calls) }

// scaleMemory measures the live heap a State of n listed sessions takes
// (the list folded in, the decoded list dropped), then what the
// histories of every session add, then what they add once sealed.
func scaleMemory(tb testing.TB, n int) scaleCost {
	f := loadScaleFixture(tb)
	before := liveHeap()
	s := New()
	list := f.sessions(tb, n)
	s.ApplySnapshot(Snapshot{Sessions: list, Complete: true})
	list = nil
	listed := liveHeap()
	for _, id := range s.Roots() {
		for _, sid := range s.SubtreeIDs(id) {
			s.ApplyMessages(map[string][]wire.MessageWithParts{sid: f.historyOf(tb, sid)})
		}
	}
	read := liveHeap()
	c := scaleCost{listed: float64(int64(listed)-int64(before)) / float64(n),
		history: float64(int64(read)-int64(listed)) / float64(n)}
	for _, ss := range s.list {
		c.calls += len(ss.Tools)
	}
	for _, ss := range s.list {
		if !s.SealIdle(ss.ID) {
			tb.Fatalf("%s was not sealed", ss.ID)
		}
	}
	c.sealed = float64(int64(liveHeap())-int64(listed)) / float64(n)
	runtime.KeepAlive(s)
	runtime.KeepAlive(list)
	return c
}

// BenchmarkScaleMemory reports what a session costs the model at 50,000
// sessions: from the list alone, what its history (a prompt and a reply
// with three tool calls) adds read whole, per session and per tool call,
// and what it adds once sealed (what a screen keeps of a finished
// session out of view):
//
//	go test -run '^$' -bench ScaleMemory -benchtime 1x ./model/
func BenchmarkScaleMemory(b *testing.B) {
	const n = 50000
	for b.Loop() {
		c := scaleMemory(b, n)
		b.ReportMetric(c.listed, "bytes/session")
		b.ReportMetric(c.history, "bytes/history")
		b.ReportMetric(c.perCall(n), "bytes/call")
		b.ReportMetric(c.sealed, "bytes/sealed")
		b.ReportMetric((c.listed+c.history)*n/(1<<20), "heap-MB")
		b.ReportMetric((c.listed+c.sealed)*n/(1<<20), "sealed-heap-MB")
	}
}

// TestScaleMemoryBound holds the figures BenchmarkScaleMemory reports,
// on 5,000 sessions: a listed session costs at most 520 bytes of live
// heap, a tool call of a history read whole at most 520, and a sealed
// history at most 100 beyond its listed session (read whole, it is
// about 1.4 KB).
func TestScaleMemoryBound(t *testing.T) {
	const n = 5000
	c := scaleMemory(t, n)
	t.Logf("%d sessions: %.0f bytes a listed session, %.0f a history, %.0f a tool call, %.0f a sealed history",
		n, c.listed, c.history, c.perCall(n), c.sealed)
	if c.listed > 520 || c.perCall(n) > 520 || c.sealed > 100 {
		t.Fatalf("%.0f bytes a session (at most 520), %.0f a tool call (at most 520), %.0f a sealed history (at most 100)",
			c.listed, c.perCall(n), c.sealed)
	}
}
