package record

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// FlushEvery is how often the Writer flushes what it has written: a crash
// loses at most this much of the recording.
const FlushEvery = time.Second

// Writer writes a recording as things arrive. It is safe for concurrent
// use: the stream and the screen's snapshot fetches write from their own
// goroutines. A write error is kept, stops further writes and comes back
// from Err and Close; the screen goes on without its recording.
type Writer struct {
	mu    sync.Mutex
	out   io.Writer
	file  io.Closer // nil when the caller owns out
	gz    *gzip.Writer
	dirty bool // written since the last flush
	err   error

	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

// Create starts a recording in the file at path (replacing it), stamped
// with octop's version. The file is readable by its owner only (0600),
// also when it existed with a wider mode: a recording holds every title,
// prompt and output the server sent.
func Create(path, octopVersion string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot record: %w", err)
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot record to %s: cannot make it readable by you alone: %w", path, err)
	}
	w, err := NewWriter(f, octopVersion, FlushEvery)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot record to %s: %w", path, err)
	}
	w.file = f
	return w, nil
}

// NewWriter starts a recording on out, flushing every flushEvery (when
// positive). The caller keeps out: Close does not close it.
func NewWriter(out io.Writer, octopVersion string, flushEvery time.Duration) (*Writer, error) {
	w := &Writer{out: out, gz: gzip.NewWriter(out), stop: make(chan struct{}), done: make(chan struct{})}
	w.Write(Entry{Kind: KindHeader, At: time.Now().UnixMilli(), Format: Format, Octop: octopVersion})
	if err := w.Flush(); err != nil {
		return nil, err
	}
	if flushEvery > 0 {
		go w.flushLoop(flushEvery)
	} else {
		close(w.done)
	}
	return w, nil
}

func (w *Writer) flushLoop(every time.Duration) {
	defer close(w.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
			_ = w.Flush() // the error is kept for Err and Close
		}
	}
}

// Write adds one entry.
func (w *Writer) Write(e Entry) {
	line, err := json.Marshal(e)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil || w.gz == nil {
		return
	}
	if err != nil {
		w.err = fmt.Errorf("recording a %s: %w", e.Kind, err)
		return
	}
	line = append(line, '\n')
	if _, err := w.gz.Write(line); err != nil {
		w.err = err
		return
	}
	w.dirty = true
}

// Event records one event's SSE data as the server sent it.
func (w *Writer) Event(server string, at time.Time, data []byte) {
	var buf bytes.Buffer
	buf.Grow(len(data))
	if json.Compact(&buf, data) != nil {
		// Not JSON: keep the text, so the replay shows the same decode
		// error the live screen did.
		buf.Reset()
		b, _ := json.Marshal(string(data))
		buf.Write(b)
	}
	w.Write(Entry{Kind: KindEvent, At: at.UnixMilli(), Server: server, Data: buf.Bytes()})
}

// Conn records a change of the stream's connection.
func (w *Writer) Conn(server string, at time.Time, c wire.ConnState) {
	w.writeJSON(KindConn, server, at, 0, ConnOf(c))
}

// Resync records that the stream (re)connected.
func (w *Writer) Resync(server string, at time.Time) {
	w.Write(Entry{Kind: KindResync, At: at.UnixMilli(), Server: server})
}

// Snapshot records a REST read of the whole tree: the screen's read-th
// read of the server (1 the first), so a replay answers the same read with
// it, whatever order the reads' answers came in.
func (w *Writer) Snapshot(server string, at time.Time, read int, s model.Snapshot) {
	w.writeJSON(KindSnapshot, server, at, read, s)
}

// SnapshotFailed records that the screen's read-th read of the whole tree
// failed, so the replay's same read fails too (and a later one gets the
// next snapshot, as live).
func (w *Writer) SnapshotFailed(server string, at time.Time, read int, err error) {
	w.writeJSON(KindSnapshotFailed, server, at, read, Failure{Error: err.Error()})
}

// History records one session's messages as the screen read them.
func (w *Writer) History(server string, at time.Time, id string, msgs []wire.MessageWithParts) {
	w.writeJSON(KindHistory, server, at, 0, History{ID: id, Messages: msgs})
}

// Health records the server's health reply.
func (w *Writer) Health(server string, at time.Time, h wire.Health) {
	w.writeJSON(KindHealth, server, at, 0, h)
}

func (w *Writer) writeJSON(k Kind, server string, at time.Time, read int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		w.mu.Lock()
		w.err = firstErr(w.err, fmt.Errorf("recording a %s: %w", k, err))
		w.mu.Unlock()
		return
	}
	w.Write(Entry{Kind: k, At: at.UnixMilli(), Server: server, Read: read, Data: data})
}

// firstErr returns the first non-nil error.
func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// Flush pushes what was written through gzip to the file.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil || !w.dirty || w.gz == nil {
		return w.err
	}
	if err := w.gz.Flush(); err != nil {
		w.err = err
		return err
	}
	w.dirty = false
	return nil
}

// Err is the first write error, if any.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Close ends the recording: it stops the flushing, finishes the gzip
// stream and closes the file Create opened. It returns the first error of
// the whole recording.
func (w *Writer) Close() error {
	w.closeOnce.Do(func() { close(w.stop) })
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.gz == nil {
		return w.err // closed already
	}
	gz := w.gz
	w.gz = nil
	if err := gz.Close(); err != nil {
		w.err = firstErr(w.err, err)
	}
	if w.file != nil {
		if err := w.file.Close(); err != nil {
			w.err = firstErr(w.err, err)
		}
	}
	return w.err
}
