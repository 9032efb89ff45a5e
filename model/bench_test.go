package model

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// benchStream is every recorded event, as the raw bytes the stream
// delivers, with the index where each recording starts.
func benchStream(b *testing.B) (datas [][]byte, starts map[int]bool) {
	starts = map[int]bool{}
	for _, f := range benchFiles(b) {
		starts[len(datas)] = true
		datas = append(datas, f...)
	}
	if len(datas) == 0 {
		b.Fatal("no recorded events")
	}
	return datas, starts
}

// BenchmarkDecodeOnly is the floor: decoding the recorded bytes into the
// client's event types, what any consumer of the stream has to pay.
func BenchmarkDecodeOnly(b *testing.B) {
	datas, _ := benchStream(b)
	var bytes int64
	for _, d := range datas {
		bytes += int64(len(d))
	}
	b.SetBytes(bytes / int64(len(datas)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := wire.DecodeEvent(datas[i%len(datas)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkJSONScan only validates the same bytes: no decoder built on
// encoding/json can go below it. It puts DecodeOnly in proportion.
func BenchmarkJSONScan(b *testing.B) {
	datas, _ := benchStream(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !json.Valid(datas[i%len(datas)]) {
			b.Fatal("invalid JSON in a recording")
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkDecodeAndApply decodes the same bytes and folds them into a
// State, a fresh one at the start of each recording.
func BenchmarkDecodeAndApply(b *testing.B) {
	datas, starts := benchStream(b)
	var bytes int64
	for _, d := range datas {
		bytes += int64(len(d))
	}
	b.SetBytes(bytes / int64(len(datas)))
	b.ReportAllocs()
	s := New()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i % len(datas)
		if starts[j] {
			s = New()
		}
		env, err := wire.DecodeEvent(datas[j])
		if err != nil {
			b.Fatal(err)
		}
		s.Apply(env.Event)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkApplyOnly is the reducer's own share, events decoded up front.
func BenchmarkApplyOnly(b *testing.B) {
	datas, starts := benchStream(b)
	evs := decodeAll(b, datas)
	b.ReportAllocs()
	s := New()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i % len(evs)
		if starts[j] {
			s = New()
		}
		s.Apply(evs[j])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkFlatten: n sessions with 10 tool calls each, in groups of 100
// under a root (a three-way delegation tree inside each group), every node
// expanded, filtering for the one agent in ten that is "explore".
func BenchmarkFlatten(b *testing.B) {
	for _, n := range []int{100, 10000} {
		s, expanded := bigState(n, 10)
		for _, filter := range []string{"explore", ""} {
			name := fmt.Sprintf("sessions=%d", n)
			if filter == "" {
				name += "/nofilter"
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				var rows int
				for i := 0; i < b.N; i++ {
					rows = len(Flatten(s, expanded, filter))
				}
				b.ReportMetric(float64(rows), "rows")
			})
		}
	}
}

// BenchmarkRowReads is what a frame asks per visible row besides Flatten.
func BenchmarkRowReads(b *testing.B) {
	s, expanded := bigState(10000, 10)
	rows := Flatten(s, expanded, "")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := rows[i%len(rows)]
		_ = s.display(r.ID)
		_ = s.Counts(r.ID)
		_ = s.Elapsed(r.ID, 1_800_000_000_000)
	}
}

// BenchmarkFrameAfterEvent: one event changes the state, then a frame
// reads a screenful of rows, so the rollups are rebuilt once per event.
func BenchmarkFrameAfterEvent(b *testing.B) {
	s, expanded := bigState(10000, 10)
	rows := Flatten(s, expanded, "")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Apply(status(rows[i%len(rows)].ID, []string{"busy", "idle"}[i%2]))
		for _, r := range rows[:60] {
			_ = s.Counts(r.ID)
		}
	}
}
