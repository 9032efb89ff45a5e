package wire

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecodeReferenceCaptures decodes every event of the captures kept in
// testdata (copied from shared/reference): none may fail, and the known types must not come out
// as Unknown.
func TestDecodeReferenceCaptures(t *testing.T) {
	files, _ := filepath.Glob("testdata/events-*.sse")
	if len(files) == 0 {
		t.Fatal("no captures found")
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		n := 0
		for sc.Scan() {
			line := sc.Text()
			if !strings.HasPrefix(line, "data: ") {
				continue
			}
			data := []byte(strings.TrimPrefix(line, "data: "))
			env, err := DecodeEvent(data)
			if err != nil {
				t.Errorf("%s: %v", filepath.Base(f), err)
				continue
			}
			// The fast decoder reads every event as encoding/json does.
			if std, err := decodeEvent(data, json.Unmarshal); err != nil || !sameJSON(env, std) {
				t.Errorf("%s: DecodeEvent and encoding/json differ (%v):\n%#v\n%#v", filepath.Base(f), err, env, std)
			}
			if u, ok := env.Event.(Unknown); ok && knownType(u.Type) {
				t.Errorf("%s: known type %s decoded as Unknown", filepath.Base(f), u.Type)
			}
			n++
		}
		fh.Close()
		if n == 0 {
			t.Errorf("%s: no events", f)
		}
	}
}

// TestDecodeUnknownWithClashingShape: an event type octop does not know may
// reuse a property name of the known ones with another shape; it must come
// out as Unknown, not as an error, on both streams.
func TestDecodeUnknownWithClashingShape(t *testing.T) {
	for _, data := range []string{
		`{"id":"evt_1","type":"mcp.status","properties":{"status":"connected","part":7,"info":"x"}}`,
		`{"directory":"/p","payload":{"type":"lsp.updated","properties":{"error":"boom","time":"soon"}}}`,
	} {
		env, err := DecodeEvent([]byte(data))
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if _, ok := env.Event.(Unknown); !ok {
			t.Fatalf("%s: got %T, want Unknown", data, env.Event)
		}
	}
	if env, _ := DecodeEvent([]byte(`{"directory":"/p","payload":{"type":"lsp.updated","properties":{"error":"boom"}}}`)); env.Directory != "/p" {
		t.Errorf("directory lost: %+v", env)
	}
	// A known type with a clashing shape is still an error.
	if _, err := DecodeEvent([]byte(`{"type":"session.status","properties":{"sessionID":"ses_a","status":"busy"}}`)); err == nil {
		t.Error("malformed session.status decoded without error")
	}
}

// TestDecodeSessionAndMessageInfo checks that the union decode keeps each
// info's own meaning of parentID and time.
func TestDecodeSessionAndMessageInfo(t *testing.T) {
	env, err := DecodeEvent([]byte(`{"type":"session.created","properties":{"info":{"id":"ses_c","parentID":"ses_p","title":"t","time":{"created":5,"updated":6}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	s := env.Event.(SessionCreated).Info
	if s.ParentID != "ses_p" || s.Time.Created != 5 || s.Time.Updated != 6 || s.Title != "t" {
		t.Errorf("session: %+v", s)
	}
	env, err = DecodeEvent([]byte(`{"type":"message.updated","properties":{"info":{"id":"msg_1","sessionID":"ses_c","role":"assistant","parentID":"msg_0","cost":0.5,"error":{"name":"MessageAbortedError","data":{"message":"Aborted"}},"time":{"created":7,"completed":9}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	m := env.Event.(MessageUpdated).Info
	if m.ParentID != "msg_0" || m.Time.Completed != 9 || m.Cost != 0.5 || m.Error == nil || m.Error.Name != "MessageAbortedError" {
		t.Errorf("message: %+v", m)
	}
}
