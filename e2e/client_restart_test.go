package e2e

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// TestClientStreamSurvivesRestart kills the server mid-fan-out and starts
// it again on the same data dir and port: the stream reports
// disconnected, reconnects on its own and asks for a resync.
func TestClientStreamSurvivesRestart(t *testing.T) {
	parallel(t)
	for _, v := range harness.Versions() {
		t.Run(v, func(t *testing.T) {
			t.Parallel() // each version on a server of its own
			phase := time.Now()
			s := harness.Start(t, harness.Config{Version: v})
			t.Logf("started in %v", time.Since(phase).Round(time.Millisecond))
			c := newClient(t, s)
			log := startStream(t, c)
			log.wait(t, 30*time.Second, "the stream to connect", func(items []any) bool { return count[wire.ResyncNeeded](items) == 1 })

			phase = time.Now()
			root := prompt(t, c, "restart fanout", `FANOUT k=3 agent=general child="RUNAWAY sleep=0.5"`)
			log.wait(t, 30*time.Second, "the fan-out to be under way", func(items []any) bool {
				kids := childrenOf(items, root.ID)
				return len(kids) == 3 && len(toolParts(items, kids[0])) > 0
			})
			t.Logf("fan-out under way after %v", time.Since(phase).Round(time.Millisecond))
			phase = time.Now()
			if err := s.Stop(); err != nil {
				t.Fatal(err)
			}
			t.Logf("stopped in %v", time.Since(phase).Round(time.Millisecond))
			log.wait(t, 30*time.Second, "a Disconnected state with an error", func(items []any) bool {
				for _, it := range items {
					if cs, ok := it.(wire.ConnState); ok && cs.State == wire.Disconnected && cs.Err != nil && !cs.RetryAt.IsZero() {
						return true
					}
				}
				return false
			})
			phase = time.Now()
			if err := s.Restart(); err != nil {
				t.Fatal(err)
			}
			t.Logf("restarted in %v", time.Since(phase).Round(time.Millisecond))
			phase = time.Now()
			log.wait(t, 60*time.Second, "a reconnect and a second resync", func(items []any) bool {
				return count[wire.ResyncNeeded](items) >= 2
			})
			t.Logf("reconnected %v after the restart", time.Since(phase).Round(time.Millisecond))
			// The resync the client asked for finds the sessions on disk.
			ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(30*time.Second))
			defer cancel()
			phase = time.Now()
			kids, err := c.Children(ctx, root.ID)
			if err != nil || len(kids) != 3 {
				t.Errorf("Children(root) after restart = %d, %v; want 3", len(kids), err)
			}
			t.Logf("resync read in %v", time.Since(phase).Round(time.Millisecond))
			phase = time.Now()
			if err := log.stop(t); err != nil {
				t.Errorf("Stream returned %v after its context ended, want nil", err)
			}
			t.Logf("stream stopped in %v", time.Since(phase).Round(time.Millisecond))
		})
	}
}

// TestClientNoGoroutineLeakAcrossReconnects cuts the stream's connection 20
// times (through a proxy in front of a real server) and counts goroutines:
// the count after the 20th reconnect is that after the first, and once the
// stream stops it falls back to where it was before.
func TestClientNoGoroutineLeakAcrossReconnects(t *testing.T) {
	for _, v := range harness.Versions() {
		t.Run(v, func(t *testing.T) {
			s := harness.Shared(t, v)
			waitIdle(t, s, 60*time.Second)
			proxy := newCutProxy(t, strings.TrimPrefix(s.URL, "http://"))
			// A short backoff: 20 reconnects should not take 20 × MaxBackoff.
			c := newClientWith(t, client.Options{BaseURL: proxy.URL(), Username: s.Username, Password: s.Password,
				Stream: client.StreamOptions{MinBackoff: 10 * time.Millisecond, MaxBackoff: 40 * time.Millisecond}})
			before := settledGoroutines()

			log := startStream(t, c)
			log.wait(t, 30*time.Second, "the stream to connect", func(items []any) bool { return count[wire.ResyncNeeded](items) == 1 })
			proxy.cut()
			log.wait(t, 30*time.Second, "reconnect 1", func(items []any) bool { return count[wire.ResyncNeeded](items) == 2 })
			first := settledGoroutines()
			for i := 2; i <= 20; i++ {
				proxy.cut()
				log.wait(t, 30*time.Second, fmt.Sprintf("reconnect %d", i), func(items []any) bool {
					return count[wire.ResyncNeeded](items) == i+1
				})
			}
			last := settledGoroutines()
			t.Logf("goroutines: %d before the stream, %d after reconnect 1, %d after reconnect 20", before, first, last)
			// A leak of one goroutine per reconnect would show as +19.
			if last > first+3 {
				t.Errorf("goroutines grew from %d to %d over 19 reconnects\n%s", first, last, goroutineDump())
			}
			log.mu.Lock()
			disconnects := 0
			for _, it := range log.items {
				if cs, ok := it.(wire.ConnState); ok && cs.State == wire.Disconnected && cs.Err != nil {
					disconnects++
				}
			}
			log.mu.Unlock()
			if disconnects < 20 {
				t.Errorf("%d Disconnected states with an error, want one per cut (20)", disconnects)
			}
			if err := log.stop(t); err != nil {
				t.Errorf("Stream returned %v, want nil", err)
			}
			c.CloseIdleConnections()
			_ = testwait.Poll(func() error {
				if settledGoroutines() > before+2 {
					return errors.New("goroutines left")
				}
				return nil
			}, 15*time.Second)
			if after := settledGoroutines(); after > before+2 {
				t.Errorf("goroutines: %d before the stream, %d after it stopped\n%s", before, after, goroutineDump())
			}
		})
	}
}

// settledGoroutines counts goroutines once the count holds still for
// 25ms, giving exiting ones a moment (at most half a second).
func settledGoroutines() int {
	n := runtime.NumGoroutine()
	_ = testwait.Poll(func() error {
		m := n
		time.Sleep(25 * time.Millisecond) // the span the count must hold still over
		n = runtime.NumGoroutine()
		if m != n {
			return errors.New("still changing")
		}
		return nil
	}, 500*time.Millisecond)
	return n
}

func goroutineDump() string {
	var b strings.Builder
	_ = pprof.Lookup("goroutine").WriteTo(&b, 1)
	return b.String()
}
