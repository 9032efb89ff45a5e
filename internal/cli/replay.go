package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/octop-dev/octop/internal/feed"
	"github.com/octop-dev/octop/internal/record"
	"github.com/octop-dev/octop/internal/shell"
	"github.com/octop-dev/octop/ui"
)

// demoLoopPause is how long the demo's last state stays on screen before
// it starts over.
const demoLoopPause = 8 * time.Second

// runReplay plays the recording at path (--replay).
func runReplay(path string, speed float64, stderr io.Writer) int {
	// The file is read as a stream: through once now, to check it and
	// learn its servers, then as it plays.
	src := record.File(path)
	info, err := record.Scan(src)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
		fmt.Fprintln(stderr, "octop: --replay:", err)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "octop: --replay %s: %v\n", path, err)
		return 1
	}
	if info.Truncated {
		fmt.Fprintf(stderr, "octop: %s ends mid-way (octop stopped while recording); replaying up to the cut\n", path)
	}
	if len(info.Servers) > 1 {
		return playSeveral(src, record.Options{Speed: speed}, "replay", stderr)
	}
	return play(src, record.Options{Speed: speed}, "replay", stderr)
}

// runDemo replays the embedded recording on a loop.
func runDemo(stderr io.Writer) int {
	rec, err := demoRecording()
	if err != nil {
		fmt.Fprintln(stderr, "octop: the built-in demo recording is unreadable:", err)
		return 1
	}
	return play(rec.Source(), record.Options{Loop: true, LoopPause: demoLoopPause}, "demo", stderr)
}

// play shows rec in the screen, read-only, through a record.Player. The
// read-only rooms are answered from what the recording has shown so far
// (record.Recorded); every key that would change something answers
// "<label>: read-only".
func play(src record.Source, opts record.Options, label string, stderr io.Writer) int {
	var b *feed.Batcher
	seen := record.NewRecorded()
	opts.OnLoop = func() { seen.Reset(); b.Send(feed.ResetMsg{}) }
	p, err := record.Play(src, opts)
	if err != nil {
		fmt.Fprintf(stderr, "octop: --%s: %v\n", label, err)
		return 2
	}
	root := ui.New(ui.Options{Demo: true, ReadOnly: label + ": read-only", RecordedHistory: p.HasHistories(),
		Server: record.ReadOnly(p.Backend(), seen, label), Clock: p.Clock, NoColor: noColor()})
	prog := newProgram(shell.NewScreen(root, p, label), screenOptions())
	b = feed.NewBatcher(prog.Send, feed.FrameInterval)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.Run(ctx, func(msg any) { seen.Observe(msg); b.Send(msg) })
	if _, err := prog.Run(); err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return 1
	}
	return 0
}
