package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/record"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// recorder wires --record between the client and the screen: the stream's
// raw events and connection changes, and the screen's snapshot and health
// reads, are written as they pass. A nil recorder passes everything
// through untouched.
type recorder struct {
	path   string
	w      *record.Writer
	tap    record.Tap
	closed bool
}

// startRecording opens path and hooks the stream of o to it. An empty
// path records nothing and returns a nil recorder.
func startRecording(path string, o *client.Options) (*recorder, error) {
	r, err := openRecording(path)
	if err != nil || r == nil {
		return nil, err
	}
	return r.also(o), nil
}

// openRecording opens path for recording; also then hooks each server to
// it. An empty path records nothing and returns a nil recorder.
func openRecording(path string) (*recorder, error) {
	if path == "" {
		return nil, nil
	}
	w, err := record.Create(path, octopVersion())
	if err != nil {
		return nil, fmt.Errorf("--record %s: %w", path, err)
	}
	return &recorder{path: path, w: w}, nil
}

// also is a recorder for another server, o, into the same file (a
// screen of several servers): one Writer, whose taps may write at once.
// A nil recorder records nothing.
func (r *recorder) also(o *client.Options) *recorder {
	if r == nil {
		return nil
	}
	a := &recorder{path: r.path, w: r.w, tap: r.w.Tap(o.BaseURL)}
	o.Stream.Raw = a.tap.Raw
	return a
}

// announce writes down that its server joins the recording, so a replay
// shows the servers in the order the screen did.
func (r *recorder) announce() {
	if r != nil {
		r.tap.Announce()
	}
}

// server records the screen's snapshot and health reads of o.
func (r *recorder) server(o task.Server) task.Server {
	if r == nil {
		return o
	}
	return tappedServer{Server: o, reads: r.tap.Backend(o), tap: r.tap}
}

// tappedServer is o with its reads going through the recording's tap.
type tappedServer struct {
	task.Server
	reads record.Backend
	tap   record.Tap
}

// History records each history the screen reads, so that a replay shows
// the sessions that ended before the recording began.
func (t tappedServer) History(ctx context.Context, id, dir string) ([]wire.MessageWithParts, error) {
	msgs, err := t.Server.History(ctx, id, dir)
	if err == nil {
		t.tap.History(id, msgs)
	}
	return msgs, err
}

func (t tappedServer) Snapshot(ctx context.Context) (model.Snapshot, error) {
	return t.reads.Snapshot(ctx)
}
func (t tappedServer) Health(ctx context.Context) (wire.Health, error) { return t.reads.Health(ctx) }

func (r *recorder) send(next func(any)) func(any) {
	if r == nil {
		return next
	}
	return r.tap.Send(next)
}

// close finishes the file; a recording that failed on the way says so.
// The file is finished once: a second close does nothing.
func (r *recorder) close(stderr io.Writer) {
	if r == nil || r.closed {
		return
	}
	r.closed = true
	if err := r.w.Close(); err != nil {
		fmt.Fprintf(stderr, "octop: the recording %s is incomplete: %v\n", r.path, err)
	}
}
