package actions

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/opencodetest"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/wire"
)

// historyServer is a fake server holding n finished sessions (a root per
// ten, nine children each), every one with a prompt and two replies with
// three tool calls and a text between them.
func historyServer(b *testing.B, n int) *client.Client {
	srv := opencodetest.New(b, opencodetest.Options{})
	for i := range n {
		id := fmt.Sprintf("ses_%06d", i)
		parent := ""
		if i%10 != 0 {
			parent = fmt.Sprintf("ses_%06d", i-i%10)
		}
		at := int64(1_000_000 + i*1000)
		srv.AddSession(wire.Session{ID: id, ParentID: parent, Title: "job " + id,
			Time: wire.SessionTime{Created: at, Updated: at + 900}})
		srv.SetMessages(id, benchMessages(id, at))
	}
	c, err := client.New(client.Options{BaseURL: srv.URL()})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

func benchMessages(id string, at int64) []wire.MessageWithParts {
	msgs := []wire.MessageWithParts{{Info: wire.Message{ID: "msg_1", SessionID: id, Role: "user", Agent: "general",
		Time: wire.MessageTime{Created: at}}}}
	for m := 2; m <= 3; m++ {
		mid := fmt.Sprintf("msg_%d", m)
		reply := wire.MessageWithParts{Info: wire.Message{ID: mid, SessionID: id, Role: "assistant", Agent: "general",
			Cost: 0.001, Tokens: wire.Tokens{Input: 1200, Output: 300}, Finish: "tool-calls",
			Time: wire.MessageTime{Created: at + int64(m*100), Completed: at + int64(m*100+90)}}}
		for k := range 3 {
			reply.Parts = append(reply.Parts, wire.Part{ID: fmt.Sprintf("prt_%d_%d", m, k), SessionID: id, MessageID: mid,
				Type: wire.PartTool, Tool: "bash", CallID: "call", State: &wire.ToolState{Status: wire.ToolCompleted,
					Title: "go test ./...", Input: json.RawMessage(`{"command":"go test ./..."}`), Output: "ok  \tpkg\t0.1s\n",
					Time: wire.ToolTime{Start: at + 10, End: at + 20}}})
		}
		reply.Parts = append(reply.Parts, wire.Part{ID: fmt.Sprintf("prt_%d_t", m), SessionID: id, MessageID: mid,
			Type: wire.PartText, Text: "done with step", Time: &wire.PartTime{Start: at + 30, End: at + 40}})
		msgs = append(msgs, reply)
	}
	msgs[len(msgs)-1].Info.Finish = "stop"
	return msgs
}

// BenchmarkHistory: 2,000 sessions. Each iteration times, back to back so
// the machine's load hits them alike: bare, the floor, the same REST reads
// (list, status, every message list, four at a time) decoded and dropped;
// first, what octop needs before it draws (list, status, the model and
// its rows); full, everything loaded (LoadState: first plus every history
// read by client.History and folded into the model as it arrives, then
// the rows again). It reports each in ms and full/bare, first/bare.
//
//	go test -run '^$' -bench History -benchtime 5x ./actions/
func BenchmarkHistory(b *testing.B) {
	const n = 2000
	c := historyServer(b, n)
	ctx := context.Background()
	var bare, first, full time.Duration
	for range b.N {
		t0 := time.Now()
		bareRead(b, ctx, c, n)
		t1 := time.Now()
		firstTree(b, ctx, c, n)
		t2 := time.Now()
		st, _, err := LoadState(ctx, c)
		if err != nil {
			b.Fatal(err)
		}
		if rows := model.Flatten(st, expandAll(st), ""); len(rows) != n {
			b.Fatalf("%d rows", len(rows))
		}
		if k := st.StateOf("ses_000001").Kind; k != model.KindComplete {
			b.Fatalf("state %v", k)
		}
		t3 := time.Now()
		bare, first, full = bare+t1.Sub(t0), first+t2.Sub(t1), full+t3.Sub(t2)
	}
	ms := func(d time.Duration) float64 { return float64(d.Milliseconds()) / float64(b.N) }
	b.ReportMetric(ms(bare), "bare-ms")
	b.ReportMetric(ms(first), "first-ms")
	b.ReportMetric(ms(full), "full-ms")
	b.ReportMetric(float64(full)/float64(bare), "full/bare")
	b.ReportMetric(float64(first)/float64(bare), "first/bare")
}

func bareRead(b *testing.B, ctx context.Context, c *client.Client, n int) {
	sessions, err := c.Sessions(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := c.Status(ctx); err != nil {
		b.Fatal(err)
	}
	var mu sync.Mutex
	read := 0
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(client.HistoryParallel)
	for _, s := range sessions {
		g.Go(func() error {
			msgs, err := c.Messages(gctx, s.ID, 0)
			mu.Lock()
			read += len(msgs)
			mu.Unlock()
			return err
		})
	}
	if err := g.Wait(); err != nil || read != 3*n {
		b.Fatalf("read %d messages: %v", read, err)
	}
}

func firstTree(b *testing.B, ctx context.Context, c *client.Client, n int) {
	sessions, err := c.Sessions(ctx)
	if err != nil {
		b.Fatal(err)
	}
	status, err := c.Status(ctx)
	if err != nil {
		b.Fatal(err)
	}
	st := model.New()
	st.ApplySnapshot(model.Snapshot{Sessions: sessions, Status: status, Complete: true})
	if rows := model.Flatten(st, expandAll(st), ""); len(rows) != n {
		b.Fatalf("%d rows", len(rows))
	}
}

func expandAll(st *model.State) map[string]bool {
	m := map[string]bool{}
	for _, id := range st.Roots() {
		m[id] = true
	}
	return m
}
