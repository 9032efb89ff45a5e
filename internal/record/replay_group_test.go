package record

import (
	"context"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/wire"
)

// TestGroupKeepsEachServersTime: b's only event came 100 ms after a's
// first; played from a Group, b's player waits those 100 ms (scaled) as
// a's does, rather than starting b's recording at once, and the keys
// change every player.
func TestGroupKeepsEachServersTime(t *testing.T) {
	t0 := time.UnixMilli(1_800_000_000_000)
	idle := func(server string, at time.Time, id string) Entry {
		return Entry{Kind: KindEvent, At: at.UnixMilli(), Server: server,
			Data: []byte(`{"type":"session.idle","properties":{"sessionID":"` + id + `"}}`)}
	}
	rec := Recording{Header: Entry{Kind: KindHeader, Format: Format, At: t0.UnixMilli()},
		Entries: []Entry{idle("http://a", t0, "ses_a"), idle("http://b", t0.Add(100*time.Millisecond), "ses_b")}}
	g, err := NewGroup(rec, Options{Speed: 0.25}) // 100 ms of the recording take 400 ms
	if err != nil {
		t.Fatal(err)
	}
	if len(g) != 2 {
		t.Fatalf("%d players, want 2", len(g))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	got := make(chan time.Duration, 1)
	go g[1].Run(ctx, func(v any) {
		if _, ok := v.(wire.Envelope); ok {
			got <- time.Since(start)
		}
	})
	if d := <-got; d < 300*time.Millisecond {
		t.Errorf("b's event came %v after the start; recorded 100 ms after a's at 0.25×, want about 400 ms", d)
	}
	if g.Faster() != 0.5 || func() bool { _, s := g[1].State(); return s != 0.5 }() {
		t.Error("+ did not speed up every player")
	}
	if !g.Toggle() || func() bool { p, _ := g[1].State(); return !p }() {
		t.Error("space did not pause every player")
	}
}
