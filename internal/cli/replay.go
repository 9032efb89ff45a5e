package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/feed"
	"github.com/octop-dev/octop/internal/record"
	"github.com/octop-dev/octop/ui"
	"github.com/octop-dev/octop/ui/history"
	"github.com/octop-dev/octop/ui/servers"
)

// demoLoopPause is how long the demo's last state stays on screen before
// it starts over.
const demoLoopPause = 8 * time.Second

// runReplay plays the recording at path (--replay).
func runReplay(path string, speed float64, policy history.Policy, stderr io.Writer) int {
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
	rec := replaySource{src: src, label: "replay", source: "replay " + path, truncated: info.Truncated, history: policy,
		several: len(info.Servers) > 1}
	return play(rec, record.Options{Speed: speed}, stderr)
}

// replaySource is a recording to play and how the screen names it: label
// for its notices ("replay", "demo"), source for its header ("replay
// FILE"), whether it was cut short, and whether it holds several servers
// (a screen of several plays it).
type replaySource struct {
	src       record.Source
	label     string
	source    string
	truncated bool
	several   bool
	history   history.Policy // what the live screen read by, reading the recorded histories
}

// header is what the screen's header names the recording: source, with
// "(cut short)" when it was.
func (rec replaySource) header() string {
	if rec.truncated {
		return rec.source + " (cut short)"
	}
	return rec.source
}

// playback is a recording's screen and what plays the recording into it:
// oneReplay for one server, severalReplay for several.
type playback interface {
	model() tea.Model
	run(ctx context.Context, send func(tea.Msg))
}

// open builds rec's playback.
func (rec replaySource) open(opts record.Options) (playback, error) {
	if rec.several {
		return newSeveralReplay(rec, opts)
	}
	r, err := newReplay(rec, opts)
	if err != nil {
		return nil, err // not a nil *oneReplay in the interface
	}
	return r, nil
}

// runDemo replays the embedded recording on a loop.
func runDemo(stderr io.Writer) int {
	rec, err := demoRecording()
	if err != nil {
		fmt.Fprintln(stderr, "octop: the built-in demo recording is unreadable:", err)
		return 1
	}
	return play(replaySource{src: rec.Source(), label: "demo", source: "demo", truncated: rec.Truncated},
		record.Options{Loop: true, LoopPause: demoLoopPause}, stderr)
}

// oneReplay is the screen of a recording of one server, and its player.
type oneReplay struct {
	screen servers.Screen
	player *record.Player
	seen   *record.Recorded
	b      *feed.Batcher
}

// newReplay builds the screen for rec: read-only, the header naming it
// source (with "(cut short)" when it is: said on the screen, where the
// person looks, not on stderr, hidden under it), the replay's keys in
// the ? help. The read-only rooms are answered from what the recording has
// shown so far (record.Recorded); every key that would change something
// answers "<label>: read-only".
func newReplay(rec replaySource, opts record.Options) (*oneReplay, error) {
	r := &oneReplay{seen: record.NewRecorded()}
	opts.OnLoop = func() { r.seen.Reset(); r.b.Send(feed.ResetMsg{}) }
	p, err := record.Play(rec.src, opts)
	if err != nil {
		return nil, err
	}
	r.player = p
	label := rec.label
	root := ui.New(ui.Options{Demo: true, ReadOnly: label + ": read-only", Source: rec.header(), RecordedHistory: p.HasHistories(), History: rec.history,
		Server: record.ReadOnly(p.Backend(), r.seen, label), Clock: p.Clock, NoColor: noColor(),
		MoreKeys: servers.DefaultReplayKeyMap().ShortHelp()})
	r.screen = servers.NewScreen(root, p, label).WithHint(replayHint(label, rec.truncated))
	return r, nil
}

// replayHint is a replay's first notice: which keys drive it, and that
// the recording was cut short when it was.
func replayHint(label string, truncated bool) string {
	if truncated {
		return label + ": the recording ends mid-way (octop stopped while recording); space pauses, + faster, - slower"
	}
	return label + ": space pauses, + plays faster, - slower"
}

// run plays the recording to the screen through send (a program's Send)
// until ctx ends; at its end the header says so.
func (r *oneReplay) run(ctx context.Context, send func(tea.Msg)) {
	r.b = feed.NewBatcher(send, feed.FrameInterval)
	go r.player.Run(ctx, func(msg any) { r.seen.Observe(msg); r.b.Send(msg) })
	go sayEnded(ctx, r.player, r.b.Send)
}

func (r *oneReplay) model() tea.Model { return r.screen }

// play shows rec in the screen, read-only: one server's through a
// record.Player, several servers' through a record.Group.
func play(rec replaySource, opts record.Options, stderr io.Writer) int {
	r, err := rec.open(opts)
	if err != nil {
		fmt.Fprintf(stderr, "octop: --%s: %v\n", rec.label, err)
		return 2
	}
	prog := newProgram(r.model(), screenOptions())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.run(ctx, prog.Send)
	if _, err := prog.Run(); err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return 1
	}
	return 0
}

// sayEnded tells the screen, through send, once p has played its
// recording to the end.
func sayEnded(ctx context.Context, p *record.Player, send func(any)) {
	select {
	case <-p.Ended():
		send(ui.PlaybackMsg{State: "ended"})
	case <-ctx.Done():
	}
}
