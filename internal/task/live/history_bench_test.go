package live

import (
	"context"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/model"
)

// historyServer is a fake server holding n finished sessions
// (opencodetest's AddFinished) and a client of it.
func historyServer(b *testing.B, n int) (*opencodetest.Server, *client.Client) {
	srv := opencodetest.New(b, opencodetest.Options{})
	srv.AddFinished(n)
	c, err := client.New(client.Options{BaseURL: srv.URL()})
	if err != nil {
		b.Fatal(err)
	}
	return srv, c
}

// bareRead is the floor: the same REST reads, decoded and dropped.
func bareRead(b *testing.B, ctx context.Context, srv *opencodetest.Server, n int) {
	if read, err := srv.ReadAll(ctx, task.HistoryParallel); err != nil || read != 3*n {
		b.Fatalf("read %d messages: %v", read, err)
	}
}

// BenchmarkHistory: 2,000 sessions. Each iteration times, back to back so
// the machine's load hits them alike: bare, the floor, the same REST reads
// (list, status, every message list, four at a time) decoded and dropped;
// first, what octop needs before it draws (list, status, the model and
// its rows); full, everything loaded (LoadState: first plus every history
// read by task.ReadHistories and folded into the model as it arrives, then
// the rows again). It reports each in ms and full/bare, first/bare.
//
//	go test -run '^$' -bench History -benchtime 5x ./actions/
func BenchmarkHistory(b *testing.B) {
	const n = 2000
	srv, c := historyServer(b, n)
	ctx := context.Background()
	var bare, first, full time.Duration
	for range b.N {
		t0 := time.Now()
		bareRead(b, ctx, srv, n)
		t1 := time.Now()
		firstTree(b, ctx, c, n)
		t2 := time.Now()
		st, _, _, err := LoadState(ctx, c)
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

// TestTransportKeepsHistoryConnections: the client keeps enough idle
// connections to a server for task.HistoryParallel readers and a
// snapshot's as many at once; net/http keeps 2, and the others were
// closed after each read and dialled again (1,672 times for 50,000
// histories).
func TestTransportKeepsHistoryConnections(t *testing.T) {
	if client.IdleConnsPerHost < 2*task.HistoryParallel {
		t.Fatalf("%d idle connections kept per server, want at least %d", client.IdleConnsPerHost, 2*task.HistoryParallel)
	}
}
