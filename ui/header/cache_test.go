package header

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

// TestCacheDrawsWhatLinesDraws: through a run of changes, each of which
// shows in the header (the selected session renamed in place, a countdown
// ticking, an error's text, the styles, the width), the cache's lines are
// those drawn from scratch.
func TestCacheDrawsWhatLinesDraws(t *testing.T) {
	st, light := styles.New(true, false), styles.New(false, false)
	t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	sel := &model.Session{ID: "ses_a", Title: "first title"}
	d := Data{ServerURL: "http://127.0.0.1:4096", Version: "1.18.33", ConnKnown: true,
		Conn: wire.ConnState{State: wire.Connected}, Now: t0, Counts: model.Counts{Sessions: 3, Running: 2}, Selected: sel}
	steps := []func(){
		func() {},
		func() { d.Now = t0.Add(time.Second) }, // connected: no clock shows
		func() { sel.Title = "renamed in place" },
		func() { d.Subtree.Tokens = 1200 },
		func() {
			d.Conn = wire.ConnState{State: wire.Disconnected, Err: errors.New("refused"), RetryAt: t0.Add(5 * time.Second)}
		},
		func() { d.Now = t0.Add(2 * time.Second) }, // the countdown moves
		func() { d.Conn.Err = errors.New("reset by peer") },
		func() { d.LostAt = t0 },
		func() { d.Now = t0.Add(4 * time.Second) },
		func() { d.Conn = wire.ConnState{State: wire.Connected}; d.LostAt = time.Time{} },
		func() { d.SnapErr = errors.New("timed out") },
		func() { d.SnapErr = errors.New("timed out again") },
		func() { st = light },
		func() { d.Selected = nil },
	}
	var c Cache
	for _, width := range []int{120, 60} {
		for i, step := range steps {
			step()
			got, want := c.Lines(st, d, width), Lines(st, d, width)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("width %d, step %d: cached %q, drawn %q", width, i, got, want)
			}
		}
	}
}

// TestCacheKeepsAnUnchangedHeader: a frame whose header shows nothing new
// reuses the lines (the point of the cache).
func TestCacheKeepsAnUnchangedHeader(t *testing.T) {
	st := styles.New(true, false)
	d := Data{ServerURL: "http://h:1", ConnKnown: true, Conn: wire.ConnState{State: wire.Connected}, Now: time.Unix(1, 0)}
	var c Cache
	first := c.Lines(st, d, 80)
	d.Now = time.Unix(2, 0)
	if again := c.Lines(st, d, 80); &again[0] != &first[0] {
		t.Error("a header that shows no clock was drawn again when the time moved")
	}
}
