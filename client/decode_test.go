package client

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// realHistories are histories real servers answered (model's testdata)
// and the scale fake's.
func realHistories(t testing.TB) map[string][]byte {
	t.Helper()
	var files []string
	for _, pattern := range []string{"../model/testdata/*.messages.json", "../model/testdata/background/*messages.json",
		"../model/testdata/scale/history.json"} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	if len(files) < 5 {
		t.Fatalf("found %d history files, want the model's testdata", len(files))
	}
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = b
	}
	return out
}

// TestDecodeAgreesWithEncodingJSON: real histories decode to exactly what
// encoding/json makes of them.
func TestDecodeAgreesWithEncodingJSON(t *testing.T) {
	for name, b := range realHistories(t) {
		var fast, std []wire.MessageWithParts
		if err := decode(b, &fast); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := json.Unmarshal(b, &std); err != nil {
			t.Fatalf("%s: encoding/json: %v", name, err)
		}
		if len(std) == 0 || !reflect.DeepEqual(fast, std) {
			t.Errorf("%s: decode and encoding/json differ (%d and %d messages)", name, len(fast), len(std))
		}
	}
}

// TestDecodeKeepsTheNestingLimit: an answer nested deeper than
// encoding/json allows is refused with encoding/json's words, though the
// fast decoder alone would skip it (and, deep enough, overflow its stack).
func TestDecodeKeepsTheNestingLimit(t *testing.T) {
	deep := `[{"info":{"id":"msg_1","role":"user","x":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}}]`
	var msgs []wire.MessageWithParts
	err := decode([]byte(deep), &msgs)
	if err == nil || !strings.Contains(err.Error(), "exceeded max depth") {
		t.Fatalf("got %v, want encoding/json's exceeded max depth", err)
	}
	// Many brackets, shallow: decoded by encoding/json, and right.
	wide := `[{"info":{"id":"msg_1","role":"user","x":[` + strings.Repeat("[],", 20000) + `[]]}}]`
	if err := decode([]byte(wide), &msgs); err != nil || len(msgs) != 1 || msgs[0].Info.ID != "msg_1" {
		t.Fatalf("a wide answer: %v, %+v", err, msgs)
	}
}

// TestDecodeErrorIsEncodingJSONs: a malformed answer is reported as
// encoding/json reports it, and nothing the fast decoder half-filled is
// left behind.
func TestDecodeErrorIsEncodingJSONs(t *testing.T) {
	bad := []byte(`[{"info":{"id":"msg_1","role":"user"}},{"info":{"id":`)
	var std []wire.MessageWithParts
	want := json.Unmarshal(bad, &std)
	got := []wire.MessageWithParts{{Info: wire.Message{ID: "old"}}}
	err := decode(bad, &got)
	if err == nil || want == nil || err.Error() != want.Error() {
		t.Fatalf("decode: %v; encoding/json: %v", err, want)
	}
}

// FuzzDecode: whatever encoding/json accepts, decode accepts and decodes
// alike.
func FuzzDecode(f *testing.F) {
	for _, b := range realHistories(f) {
		f.Add(b)
	}
	f.Add([]byte(`[{"info":{"id":"a\u0000b","time":{"created":1e3}}}]`))
	f.Add([]byte("[{\"info\":{\"id\":\"\xff\xfe\"}}]"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var fast, std []wire.MessageWithParts
		errStd := json.Unmarshal(b, &std)
		errFast := decode(b, &fast)
		if errStd == nil && errFast != nil {
			t.Fatalf("encoding/json accepts what decode refuses: %v", errFast)
		}
		if errStd == nil && !reflect.DeepEqual(fast, std) {
			t.Fatalf("decode and encoding/json differ:\n%+v\n%+v", fast, std)
		}
	})
}
