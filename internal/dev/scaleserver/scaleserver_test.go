package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestShapes checks the data set against what the issue asks for and the
// real server's shapes: 50,000 sessions in families of ten, a list of
// about 33 MB whose sessions carry tokens and cost equal to their
// messages', histories of about 3.9 KB, ids that sort newest first.
func TestShapes(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC).UnixMilli()
	d := newDataset(50000, 9, 1, 1, now, year, "/home/dev/project", 10)
	// The handler is called directly: no server listens (the one fake
	// for unit tests is internal/testkit/opencodetest; this tests the fake itself).
	h := (&server{d: d, stats: newStats()}).handler()
	get := func(path string, v any) int {
		t.Helper()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: status %d", path, rec.Code)
		}
		b := rec.Body.Bytes()
		if v != nil {
			if err := json.Unmarshal(b, v); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
		return len(b)
	}
	type tok struct {
		Input, Output, Reasoning float64
		Cache                    struct{ Read, Write float64 }
	}
	type session struct {
		ID, ParentID, Title string
		Cost                float64
		Tokens              tok
		Time                struct{ Created, Updated int64 }
	}
	var list []session
	size := get("/session", &list)
	t.Logf("GET /session: %d sessions, %.1f MB", len(list), float64(size)/1e6)
	if len(list) != 50000 || size < 30e6 || size > 36e6 {
		t.Fatalf("list: %d sessions, %d bytes", len(list), size)
	}
	roots, week := 0, 0
	for k, s := range list {
		if s.ParentID == "" {
			roots++
		}
		if k > 0 && s.Time.Updated > list[k-1].Time.Updated {
			t.Fatalf("list not newest first at %d", k)
		}
		if s.Time.Updated >= now-7*24*3600*1000 {
			week++
		}
		if len(s.ID) != 30 || !strings.HasPrefix(s.ID, "ses_") {
			t.Fatalf("id %q", s.ID)
		}
	}
	t.Logf("%d roots; %d sessions updated in the last 7 days", roots, week)
	if roots != 5000 {
		t.Fatalf("%d roots", roots)
	}
	// Ids: newer sorts first (within one 2^36 ms wrap of OpenCode's
	// 48-bit clock, as on the real server).
	byCreated := append([]session(nil), list...)
	sort.Slice(byCreated, func(i, j int) bool { return byCreated[i].Time.Created > byCreated[j].Time.Created })
	wraps := 0
	for k := 1; k < len(byCreated); k++ {
		if byCreated[k].ID < byCreated[k-1].ID {
			wraps++
		}
	}
	if wraps > 1 {
		t.Fatalf("ids out of creation order %d times", wraps)
	}

	type part struct {
		Type, Tool string
		State      *struct{ Status string }
	}
	type msg struct {
		Info struct {
			Role   string
			Cost   float64
			Tokens tok
			Finish string
		}
		Parts []part
	}
	total := 0
	for k, s := range list {
		if k%50 != 0 && k > 20 {
			continue
		}
		var msgs []msg
		total += get("/session/"+s.ID+"/message", &msgs)
		var sum tok
		var cost float64
		bash := 0
		for _, m := range msgs {
			sum.Input += m.Info.Tokens.Input
			sum.Output += m.Info.Tokens.Output
			sum.Cache.Read += m.Info.Tokens.Cache.Read
			cost += m.Info.Cost
			for _, p := range m.Parts {
				if p.Tool == "bash" {
					bash++
				}
			}
		}
		if k >= 10 && (len(msgs) != 2 || bash != 3 || msgs[1].Info.Finish != "stop") {
			t.Fatalf("%s: %d messages, %d bash calls", s.ID, len(msgs), bash)
		}
		if sum.Input != s.Tokens.Input || sum.Output != s.Tokens.Output || sum.Cache.Read != s.Tokens.Cache.Read ||
			(cost-s.Cost) > 1e-6 || (s.Cost-cost) > 1e-6 {
			t.Fatalf("%s: session tokens %+v cost %v, messages %+v %v", s.ID, s.Tokens, s.Cost, sum, cost)
		}
	}
	n := 50000/50 + 20
	t.Logf("history: %.0f bytes on average", float64(total)/float64(n))
	var status map[string]struct{ Type string }
	get("/session/status", &status)
	if len(status) != 10 {
		t.Fatalf("status: %v", status)
	}
}

// TestSpan: over 10 days, as issue 29's busy fortnight, about 70% of the
// sessions were updated in the last 7; over a year, about 2%.
func TestSpan(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC).UnixMilli()
	for _, tc := range []struct {
		span     int64
		low, top float64
	}{{10 * day, 0.68, 0.72}, {year, 0.015, 0.025}} {
		d := newDataset(50000, 9, 1, 1, now, tc.span, "/home/dev/project", 0)
		week := 0
		for i := range d.n {
			if d.updated[i] >= now-7*day {
				week++
			}
		}
		if share := float64(week) / float64(d.n); share < tc.low || share > tc.top {
			t.Errorf("over %d days, %.3f of the sessions in the last 7, want %.3f-%.3f", tc.span/day, share, tc.low, tc.top)
		}
	}
}
