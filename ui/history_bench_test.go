package ui

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/history"
	"github.com/octop-dev/octop/ui/inflight"
)

// benchHistoryServer holds n finished sessions (opencodetest's
// AddFinished); it returns the server and a client of it.
func benchHistoryServer(b *testing.B, n int) (*opencodetest.Server, *client.Client) {
	srv := opencodetest.New(b, opencodetest.Options{})
	srv.AddFinished(n)
	c, err := client.New(client.Options{BaseURL: srv.URL()})
	if err != nil {
		b.Fatal(err)
	}
	return srv, c
}

// runScreen drives the screen as Bubble Tea does: every Cmd on a goroutine
// of its own, every reply through Update on this one. It returns when the
// snapshot is drawn (first) and when no read is left (full).
func runScreen(b *testing.B, m Model) (first, full time.Duration) {
	start := time.Now()
	msgs := make(chan tea.Msg, 64)
	var out atomic.Int64
	run := func(c tea.Cmd) {
		if c == nil {
			return
		}
		out.Add(1)
		go func() {
			msgs <- c()
		}()
	}
	run(inflight.Snapshot(m.opts.Server, m.in.Tag()))
	for out.Load() > 0 {
		msg := <-msgs
		out.Add(-1)
		if batch, ok := msg.(tea.BatchMsg); ok {
			for _, c := range batch {
				run(c)
			}
			continue
		}
		nm, cmd := m.Update(msg)
		m = nm.(Model)
		if _, ok := msg.(inflight.SnapshotReply); ok {
			_ = m.View()
			first = time.Since(start)
		}
		run(cmd)
	}
	_ = m.View()
	full = time.Since(start)
	if k := m.State().StateOf("ses_000001").Kind; k != model.KindComplete || m.hist.Left(m.state) != 0 {
		b.Fatalf("not fully loaded: %v, %d left", k, m.hist.Left(m.state))
	}
	return first, full
}

// BenchmarkScreenHistory: 2,000 finished sessions on a fake server. Each
// iteration times, back to back: bare, the same REST reads (list, status,
// every message list four at a time) decoded and dropped; then the screen
// from its first snapshot to the first tree drawn (first) and to every
// history folded in and drawn (full), Cmds run as Bubble Tea runs them.
//
//	go test -run '^$' -bench ScreenHistory -benchtime 5x ./ui/
func BenchmarkScreenHistory(b *testing.B) {
	const n = 2000
	srv, c := benchHistoryServer(b, n)
	ctx := context.Background()
	var bare, first, full time.Duration
	for range b.N {
		t0 := time.Now()
		if read, err := srv.ReadAll(ctx, history.Parallel); err != nil || read != 3*n {
			b.Fatalf("read %d messages: %v", read, err)
		}
		bare += time.Since(t0)
		m := New(Options{Server: live.New(c), ServerURL: "http://x", Clock: fixedClock})
		m = send(b, m, tea.WindowSizeMsg{Width: 160, Height: 48})
		f, u := runScreen(b, m)
		first, full = first+f, full+u
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(ms(bare), "bare-ms")
	b.ReportMetric(ms(first), "first-ms")
	b.ReportMetric(ms(full), "full-ms")
	b.ReportMetric(float64(full)/float64(bare), "full/bare")
}
