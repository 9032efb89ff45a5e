package record

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

const server = "http://127.0.0.1:4096"

var t0 = time.UnixMilli(1795286989756)

// sample writes a small recording of every kind and returns its bytes.
func sample(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, "v9.9.9", 0)
	if err != nil {
		t.Fatal(err)
	}
	writeSample(w)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeSample(w *Writer) {
	w.Conn(server, t0, wire.ConnState{State: wire.Connected, Attempt: 1})
	w.Resync(server, t0)
	w.Snapshot(server, t0.Add(5*time.Millisecond), 1, model.Snapshot{
		Sessions: []wire.Session{{ID: "ses_a", Title: "refactor"}},
		Complete: true,
		Status:   map[string]wire.SessionStatus{"ses_a": {Type: wire.StatusBusy}},
	})
	w.Health(server, t0.Add(6*time.Millisecond), wire.Health{Healthy: true, Version: "1.18.33"})
	w.Event(server, t0.Add(10*time.Millisecond), []byte(`{"type":"session.idle",
		"properties":{"sessionID":"ses_a"}}`))
	w.Event(server, t0.Add(11*time.Millisecond), []byte(`not json`))
	w.Conn(server, t0.Add(20*time.Millisecond), wire.ConnState{State: wire.Disconnected,
		Err: errors.New("lost the event stream"), RetryAt: t0.Add(time.Second), Attempt: 1})
}

func TestRoundTrip(t *testing.T) {
	rec, err := Read(bytes.NewReader(sample(t)))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Truncated || rec.Header.Octop != "v9.9.9" || rec.Header.Format != Format {
		t.Fatalf("header %+v truncated %v", rec.Header, rec.Truncated)
	}
	var got []any
	for _, e := range rec.Entries {
		if e.Server != server {
			t.Errorf("entry %s from %q", e.Kind, e.Server)
		}
		v, err := e.Decode()
		if err != nil {
			t.Fatalf("decode %s: %v", e.Kind, err)
		}
		got = append(got, v)
	}
	if len(got) != 7 {
		t.Fatalf("got %d entries, want 7: %#v", len(got), got)
	}
	if c := got[0].(wire.ConnState); c.State != wire.Connected || c.Attempt != 1 {
		t.Errorf("conn = %+v", c)
	}
	if _, ok := got[1].(wire.ResyncNeeded); !ok {
		t.Errorf("entry 2 = %#v, want a resync", got[1])
	}
	snap := got[2].(model.Snapshot)
	if !snap.Complete || snap.Sessions[0].Title != "refactor" || snap.Status["ses_a"].Type != wire.StatusBusy {
		t.Errorf("snapshot = %+v", snap)
	}
	if h := got[3].(wire.Health); h.Version != "1.18.33" {
		t.Errorf("health = %+v", h)
	}
	if env := got[4].(wire.Envelope); !reflect.DeepEqual(env.Event, wire.SessionIdle{SessionID: "ses_a"}) {
		t.Errorf("event = %#v", env.Event)
	}
	if _, ok := got[5].(wire.DecodeError); !ok {
		t.Errorf("a malformed event replays as %#v, want the DecodeError the live screen got", got[5])
	}
	c := got[6].(wire.ConnState)
	if c.Err == nil || c.Err.Error() != "lost the event stream" || !c.RetryAt.Equal(t0.Add(time.Second)) {
		t.Errorf("disconnect = %+v", c)
	}
	if rec.Entries[4].At != t0.Add(10*time.Millisecond).UnixMilli() {
		t.Errorf("event at %d", rec.Entries[4].At)
	}
}

// TestTruncated cuts a recording at every byte: each prefix either reads
// with Truncated set (keeping a prefix of the entries) or is refused as
// having no header, never with a corrupt-file error.
func TestTruncated(t *testing.T) {
	full := sample(t)
	whole, err := Read(bytes.NewReader(full))
	if err != nil {
		t.Fatal(err)
	}
	for cut := 1; cut < len(full); cut++ {
		rec, err := Read(bytes.NewReader(full[:cut]))
		if err != nil {
			if !strings.Contains(err.Error(), "not an octop recording") && !strings.Contains(err.Error(), "unexpected EOF") {
				t.Fatalf("cut at %d/%d: %v", cut, len(full), err)
			}
			continue
		}
		if !rec.Truncated {
			t.Fatalf("cut at %d/%d: not marked truncated", cut, len(full))
		}
		if len(rec.Entries) > 0 && !reflect.DeepEqual(rec.Entries, whole.Entries[:len(rec.Entries)]) {
			t.Fatalf("cut at %d: entries are not a prefix of the whole", cut)
		}
	}
}

// TestTruncatedLastLine is a crash mid-line in a plain file.
func TestTruncatedLastLine(t *testing.T) {
	zr, _ := gzip.NewReader(bytes.NewReader(sample(t)))
	var plain bytes.Buffer
	if _, err := plain.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	cut := plain.Bytes()[:plain.Len()-15]
	rec, err := Read(bytes.NewReader(cut))
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Truncated || len(rec.Entries) != 6 {
		t.Fatalf("truncated=%v with %d entries, want true and 6", rec.Truncated, len(rec.Entries))
	}
}

func TestCorrupt(t *testing.T) {
	good := sample(t)
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 0xff
	notHeader := []byte(`{"kind":"event","at":1,"data":{}}` + "\n")
	badLine := []byte(`{"kind":"header","format":"octop-recording/1","at":1}` + "\n" + `{"kind":` + "\n" + `{"kind":"resync","at":2}` + "\n")
	newer := []byte(`{"kind":"header","format":"octop-recording/2","at":1}` + "\n")
	// A line nested a million levels deep: refused, never a stack overflow.
	deepLine := []byte(`{"kind":"header","format":"octop-recording/1","at":1}` + "\n" + `{"kind":"event","at":2,"data":` +
		strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20) + "}\n")
	for name, tc := range map[string]struct {
		data []byte
		want string
	}{
		"flipped byte": {flipped, "corrupt"},
		"empty":        {nil, "empty"},
		"not json":     {[]byte("hello\n"), "not an octop recording"},
		"no header":    {notHeader, "not an octop recording"},
		"bad line":     {badLine, "corrupt at line 2"},
		"newer format": {newer, "octop-recording/2"},
		"bad gzip":     {[]byte{0x1f, 0x8b, 0, 0, 0}, "corrupt"},
		"deep line":    {deepLine, "corrupt at line 2: invalid character '[' exceeded max depth"},
	} {
		_, err := Read(bytes.NewReader(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v, want one line containing %q", name, err, tc.want)
		}
	}
}

// TestFlushedWhileOpen is the crash case: what was written a flush ago is
// in the file even though the Writer was never closed.
func TestFlushedWhileOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.ndjson.gz")
	w, err := Create(path, "dev")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	writeSample(w)
	var rec Recording
	testwait.Check(t, func() error {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if rec, err = Read(bytes.NewReader(data)); err != nil {
			return err
		}
		if len(rec.Entries) != 7 {
			return fmt.Errorf("%d of 7 entries in the file", len(rec.Entries))
		}
		return nil
	}, 5*FlushEvery, "the entries flushed while the recording is open")
	if !rec.Truncated {
		t.Error("an unclosed recording should read as truncated")
	}
}

func TestServerNameHidesPassword(t *testing.T) {
	if got := ServerName("http://opencode:hunter2@host:4096/x"); got != "http://host:4096/x" {
		t.Errorf("ServerName = %q", got)
	}
	if got := ServerName(server); got != server {
		t.Errorf("ServerName = %q", got)
	}
}

// fakeBackend's snapshot reads fail while fail is set.
type fakeBackend struct{ fail *bool }

func (f fakeBackend) Snapshot(context.Context) (model.Snapshot, error) {
	if *f.fail {
		return model.Snapshot{}, errors.New("timed out")
	}
	return model.Snapshot{Sessions: []wire.Session{{ID: "ses_b"}}}, nil
}
func (fakeBackend) Health(context.Context) (wire.Health, error) {
	return wire.Health{}, errors.New("down")
}

func TestTap(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, "dev", 0)
	tap := w.Tap("http://u:secret@h:1")
	var passed []any
	send := tap.Send(func(v any) { passed = append(passed, v) })
	send(wire.ConnState{State: wire.Connected})
	send(wire.ResyncNeeded{})
	tap.Raw(`{"type":"server.connected","properties":{}}`)
	send(wire.Envelope{Event: wire.ServerConnected{}})
	fail := true
	b := tap.Backend(fakeBackend{&fail})
	if _, err := b.Snapshot(context.Background()); err == nil {
		t.Fatal("the tap hid the backend's error")
	}
	fail = false
	if _, err := b.Snapshot(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Health(context.Background()); err == nil {
		t.Fatal("the tap hid the backend's error")
	}
	w.Close()
	if len(passed) != 3 {
		t.Errorf("passed on %d values, want 3", len(passed))
	}
	if bytes.Contains(buf.Bytes(), []byte("secret")) {
		t.Error("the password is in the recording")
	}
	rec, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []Kind
	var reads []int
	for _, e := range rec.Entries {
		kinds = append(kinds, e.Kind)
		reads = append(reads, e.Read)
		if e.Server != "http://h:1" {
			t.Errorf("server %q", e.Server)
		}
	}
	// A failed snapshot read is recorded, numbered; a failed health read
	// is not.
	want := []Kind{KindConn, KindResync, KindEvent, KindSnapshotFailed, KindSnapshot}
	if !reflect.DeepEqual(kinds, want) || !reflect.DeepEqual(reads, []int{0, 0, 0, 1, 2}) {
		t.Errorf("kinds = %v, reads %v; want %v, reads [0 0 0 1 2]", kinds, reads, want)
	}
	if f, err := rec.Entries[3].Decode(); err != nil || f != (Failure{Error: "timed out"}) {
		t.Errorf("the failed read decodes to %#v, %v", f, err)
	}
}
