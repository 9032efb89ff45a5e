package main

import (
	"context"
	"fmt"
	"io"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/record"
	"github.com/octop-dev/octop/ui"
	"github.com/octop-dev/octop/wire"
)

// recorder wires --record between the client and the screen: the stream's
// raw events and connection changes, and the screen's snapshot and health
// reads, are written as they pass. A nil recorder passes everything
// through untouched.
type recorder struct {
	path string
	w    *record.Writer
	tap  record.Tap
}

// startRecording opens path and hooks the stream of o to it. An empty
// path records nothing and returns a nil recorder.
func startRecording(path string, o *client.Options) (*recorder, error) {
	if path == "" {
		return nil, nil
	}
	w, err := record.Create(path, octopVersion())
	if err != nil {
		return nil, fmt.Errorf("--record %s: %w", path, err)
	}
	r := &recorder{path: path, w: w, tap: w.Tap(o.BaseURL)}
	o.Stream.Raw = r.tap.Raw
	return r, nil
}

// ops records the screen's snapshot and health reads of o.
func (r *recorder) ops(o ui.Ops) ui.Ops {
	if r == nil {
		return o
	}
	return tappedOps{Ops: o, reads: r.tap.Backend(o), tap: r.tap}
}

// tappedOps is o with its reads going through the recording's tap.
type tappedOps struct {
	ui.Ops
	reads record.Backend
	tap   record.Tap
}

// History records each history the screen reads, so that a replay shows
// the sessions that ended before the recording began.
func (t tappedOps) History(ctx context.Context, id, dir string) ([]wire.MessageWithParts, error) {
	msgs, err := t.Ops.History(ctx, id, dir)
	if err == nil {
		t.tap.History(id, msgs)
	}
	return msgs, err
}

func (t tappedOps) Snapshot(ctx context.Context) (model.Snapshot, error) {
	return t.reads.Snapshot(ctx)
}
func (t tappedOps) Health(ctx context.Context) (wire.Health, error) { return t.reads.Health(ctx) }

func (r *recorder) send(next func(any)) func(any) {
	if r == nil {
		return next
	}
	return r.tap.Send(next)
}

// close finishes the file; a recording that failed on the way says so.
func (r *recorder) close(stderr io.Writer) {
	if r == nil {
		return
	}
	if err := r.w.Close(); err != nil {
		fmt.Fprintf(stderr, "octop: the recording %s is incomplete: %v\n", r.path, err)
	}
}
