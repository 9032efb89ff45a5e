package record

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzRead feeds Read arbitrary bytes (the seeds in testdata/fuzz/FuzzRead
// are a whole recording, cut ones, plain NDJSON and broken gzip). Read
// must not panic; what it accepts must decode without panicking and
// survive being written and read again unchanged.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"kind":"header","format":"octop-recording/1","at":1}` + "\n" + `{"kind":"resync","at":2,"server":"s"}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, e := range rec.Entries {
			_, _ = e.Decode()
		}
		var buf bytes.Buffer
		w, err := NewWriter(&buf, rec.Header.Octop, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range rec.Entries {
			w.Write(e)
		}
		if err := w.Close(); err != nil {
			t.Fatalf("writing back what Read accepted: %v", err)
		}
		again, err := Read(&buf)
		if err != nil {
			t.Fatalf("reading back what Read accepted: %v", err)
		}
		if again.Truncated || len(again.Entries) != len(rec.Entries) {
			t.Fatalf("read back %d entries (truncated %v), want %d", len(again.Entries), again.Truncated, len(rec.Entries))
		}
		for i := range rec.Entries {
			a, _ := json.Marshal(rec.Entries[i])
			b, _ := json.Marshal(again.Entries[i])
			if !bytes.Equal(a, b) {
				t.Fatalf("entry %d changed:\n%s\n%s", i+1, a, b)
			}
		}
	})
}
