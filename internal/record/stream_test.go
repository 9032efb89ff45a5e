package record

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// TestLineOverTheLimit: a line longer than the limit is a one-line error
// that names the line and the limit, not a read of the whole line.
func TestLineOverTheLimit(t *testing.T) {
	text := `{"kind":"header","at":1,"format":"` + Format + `"}` + "\n" +
		`{"kind":"event","at":2,"data":"` + strings.Repeat("x", 2000) + `"}` + "\n"
	rd, err := newEntryReader(strings.NewReader(text), 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	_, err = rd.Next()
	if err == nil || err.Error() != "line 2 of the recording is longer than 1 KiB, the most octop reads of one line" {
		t.Fatalf("Next = %v, want the limit named", err)
	}
}

// bigRecording is a recording of n events of size bytes each, a
// millisecond apart.
func bigRecording(n, size int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"kind":"header","at":1000,"format":%q}`+"\n", Format)
	title := strings.Repeat("x", size)
	for i := range n {
		data, _ := json.Marshal(map[string]any{"type": "session.updated", "properties": map[string]any{
			"info": wire.Session{ID: fmt.Sprintf("ses_%04d", i), Title: title}}})
		line, _ := json.Marshal(Entry{Kind: KindEvent, At: int64(1000 + i), Server: "http://s", Data: data})
		b.Write(append(line, '\n'))
	}
	return b.Bytes()
}

// heap is the live heap after a collection.
func heap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestPlayerStreams: a Player reads its recording as a stream: made from a
// recording of 100 MB of events, it holds none of them, and it plays
// them all.
func TestPlayerStreams(t *testing.T) {
	data := bigRecording(100, 1<<20)
	src := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	before := heap()
	p, err := Play(src, Options{Speed: 32})
	if err != nil {
		t.Fatal(err)
	}
	if held := int64(heap()) - int64(before); held > 16<<20 {
		t.Errorf("the player holds %d MB of a %d MB recording after reading it", held>>20, len(data)>>20)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan any, 200)
	go p.Run(ctx, func(v any) { got <- v })
	for i := range 100 {
		select {
		case v := <-got:
			env, ok := v.(wire.Envelope)
			if !ok || env.Event.(wire.SessionUpdated).Info.ID != fmt.Sprintf("ses_%04d", i) {
				t.Fatalf("event %d: %#v", i, v)
			}
		case <-time.After(testwait.Scale(20 * time.Second)):
			t.Fatalf("only %d of 100 events played", i)
		}
	}
	runtime.KeepAlive(p)
}

// TestWaitsDoNotOverflow: however far apart two entries are, and however
// slow the replay, the player waits a positive time of at most maxWait
// and reads the clock again, rather than spinning on a negative wait.
func TestWaitsDoNotOverflow(t *testing.T) {
	century := 100 * 365 * 24 * time.Hour
	for _, c := range []struct {
		left  time.Duration
		speed float64
	}{{century, 0.25}, {math.MaxInt64, 0.25}, {math.MaxInt64, 32}, {time.Second, 0.25}, {1, 32}} {
		if w := wallWait(c.left, c.speed); w <= 0 || w > maxWait {
			t.Errorf("wallWait(%v, %g) = %v, want in (0, %v]", c.left, c.speed, w, maxWait)
		}
	}
	if got := wallWait(time.Second, 0.25); got != 4*time.Second {
		t.Errorf("wallWait(1s, 0.25) = %v, want 4s", got)
	}
	if got := scale(math.MaxInt64, 32); got != math.MaxInt64 {
		t.Errorf("scale overflows: %v", got)
	}
}

// TestRecordingIsPrivate: a recording is its owner's alone (0600), also
// when --record writes over a file that anyone could read.
func TestRecordingIsPrivate(t *testing.T) {
	dir := t.TempDir()
	for _, existing := range []bool{false, true} {
		path := filepath.Join(dir, fmt.Sprintf("rec-%v.gz", existing))
		if existing {
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, 0o644); err != nil { // whatever the umask
				t.Fatal(err)
			}
		}
		w, err := Create(path, "test")
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if mode := fi.Mode().Perm(); mode != 0o600 {
			t.Errorf("existing=%v: the recording is %o, want 600", existing, mode)
		}
	}
}
