package client

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/octop-dev/octop/internal/bytesize"
	"github.com/octop-dev/octop/internal/wire"
)

// MaxRecordedLine is the longest line ReadRecording accepts: a recorded
// event of a tool input of megabytes is as big, and more than one copy of it
// can sit in one event.
const MaxRecordedLine = 32 << 20

// Recorded is one line of a recording (the demo, the replay fixtures): an
// event as the server sent it, stamped with the milliseconds since the
// recording started. On disk each is one JSON line:
//
//	{"ms": 1234, "data": {"id": "evt_…", "type": "…", "properties": {…}}}
type Recorded struct {
	MS   int64           `json:"ms"`
	Data json.RawMessage `json:"data"`
}

// Decode decodes the recorded event as DecodeEvent would the live one.
func (r Recorded) Decode() (wire.Envelope, error) { return wire.DecodeEvent(r.Data) }

// ReadRecording reads a recording: one Recorded per line, blank lines
// skipped. Lines may be up to MaxRecordedLine long. The error names the
// line that is bad.
func ReadRecording(r io.Reader) ([]Recorded, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxRecordedLine)
	var out []Recorded
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var rec Recorded
		if err := json.Unmarshal(line, &rec); err != nil {
			return out, fmt.Errorf("recording line %d: %w", n, err)
		}
		if len(rec.Data) == 0 || rec.Data[0] != '{' {
			return out, fmt.Errorf("recording line %d: \"data\" is not a JSON object", n)
		}
		// Copy: the scanner reuses its buffer, and RawMessage aliases it.
		rec.Data = append(json.RawMessage(nil), rec.Data...)
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return out, fmt.Errorf("recording line %d is longer than %s", len(out)+1, bytesize.Text(MaxRecordedLine))
		}
		return out, fmt.Errorf("read recording: %w", err)
	}
	return out, nil
}

// WriteRecorded writes one recording line. Data must be a JSON object; it
// is written compacted, exactly as received otherwise.
func WriteRecorded(w io.Writer, r Recorded) error {
	var buf bytes.Buffer
	buf.Grow(len(r.Data) + 32)
	fmt.Fprintf(&buf, `{"ms":%d,"data":`, r.MS)
	if err := json.Compact(&buf, r.Data); err != nil {
		return fmt.Errorf("recorded event at %d ms is not JSON: %w", r.MS, err)
	}
	buf.WriteString("}\n")
	_, err := w.Write(buf.Bytes())
	return err
}

// RESTView is the server's REST state at the end of a recording, saved
// beside it (<name>.rest.json): what a client would load on a resync.
type RESTView struct {
	// Sessions is GET /session.
	Sessions []wire.Session `json:"sessions"`
	// Status is GET /session/status (only non-idle sessions).
	Status map[string]wire.SessionStatus `json:"status"`
	// Messages is GET /session/{id}/message for every session, by id.
	Messages map[string][]wire.MessageWithParts `json:"messages"`
}

// ReadRESTView decodes a RESTView file.
func ReadRESTView(r io.Reader) (RESTView, error) {
	var v RESTView
	if err := json.NewDecoder(r).Decode(&v); err != nil {
		return v, fmt.Errorf("read REST view: %w", err)
	}
	return v, nil
}
