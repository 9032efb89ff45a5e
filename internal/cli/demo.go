package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/octop-dev/octop/assets"
	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/record"
	"github.com/octop-dev/octop/internal/wire"
)

// demoServer names the demo's server in its recording.
const demoServer = "demo"

// demoRecording turns the embedded recording (the {"ms", "data"} lines
// internal/dev/record writes) into a record.Recording, so that --demo plays
// through the same Player as --replay. Times are placed on the wall clock
// the events carry, so elapsed times read as they did when recorded.
func demoRecording() (record.Recording, error) {
	recs, err := client.ReadRecording(bytes.NewReader(assets.DemoRecording))
	if err != nil {
		return record.Recording{}, err
	}
	base := time.Now()
	for i, r := range recs {
		env, err := r.Decode()
		if err != nil {
			return record.Recording{}, fmt.Errorf("event %d: %w", i+1, err)
		}
		if ms := eventTime(env.Event); ms > 0 {
			base = time.UnixMilli(ms).Add(-time.Duration(r.MS) * time.Millisecond)
			break
		}
	}
	connected, _ := json.Marshal(record.ConnOf(wire.ConnState{State: wire.Connected, Attempt: 1}))
	rec := record.Recording{
		Header:  record.Entry{Kind: record.KindHeader, At: base.UnixMilli(), Format: record.Format},
		Entries: []record.Entry{{Kind: record.KindConn, At: base.UnixMilli(), Server: demoServer, Data: connected}},
	}
	for _, r := range recs {
		rec.Entries = append(rec.Entries, record.Entry{Kind: record.KindEvent, At: base.UnixMilli() + r.MS, Server: demoServer, Data: r.Data})
	}
	return rec, nil
}

// eventTime is the wall time (Unix ms) an event carries, or 0.
func eventTime(ev wire.Event) int64 {
	switch e := ev.(type) {
	case wire.SessionCreated:
		return e.Info.Time.Created
	case wire.SessionUpdated:
		return e.Info.Time.Updated
	case wire.MessageUpdated:
		return e.Info.Time.Created
	case wire.PartUpdated:
		return e.Time
	}
	return 0
}
