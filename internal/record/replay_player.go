package record

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Speeds are the speeds + and - step through.
var speeds = [...]float64{0.25, 0.5, 1, 2, 4, 8, 16, 32}

// Options tune a Player.
type Options struct {
	// Speed is the starting speed (1 when zero): 2 plays twice as fast.
	Speed float64
	// Loop starts the recording over after its end, once LoopPause has
	// passed, calling OnLoop first (the demo empties the tree there).
	Loop      bool
	LoopPause time.Duration
	OnLoop    func()
	// Start is the recording's time the play starts from; zero means its
	// first entry's. The players of one recording's servers share it, so
	// they keep the time they were recorded at relative to each other.
	Start time.Time
}

// Player replays one recording. Its controls (Toggle, Faster, Slower)
// and Clock are safe to call from the screen's goroutine while Run runs
// on its own. It reads the recording as a stream (Source): once when it
// is made, for what the screen may ask at any time (the health reply,
// the sessions' histories), then once for each pass it plays.
type Player struct {
	opts     Options
	src      Source
	keep     func(Entry) bool // the entries of the player's server
	server   string           // that server, in a Group ("" alone)
	start    time.Time        // the recording's first moment
	hasSnaps bool
	health   *wire.Health
	// histories are the sessions' messages the live screen read, by id.
	histories map[string][]wire.MessageWithParts

	mu        sync.Mutex
	speed     int       // index into speeds
	paused    bool      // by the user
	anchorRec time.Time // the recording's time at anchorWall
	anchorAt  time.Time // wall time
	changed   chan struct{}
	snaps     snapshotQueue
	ended     chan struct{} // closed once the last entry is played
	endOnce   sync.Once
}

// New makes a Player of rec, a recording held in memory (the demo,
// tests). An entry that cannot be decoded is an error naming it.
func New(rec Recording, opts Options) (*Player, error) { return Play(rec.Source(), opts) }

// Play makes a Player of the recording src, which it reads through once
// now: an entry that cannot be decoded is an error naming it.
func Play(src Source, opts Options) (*Player, error) {
	return playServer(src, func(Entry) bool { return true }, opts)
}

// playServer is Play of the entries keep accepts.
func playServer(src Source, keep func(Entry) bool, opts Options) (*Player, error) {
	p := &Player{opts: opts, src: src, keep: keep, changed: make(chan struct{}, 1), speed: 2, ended: make(chan struct{})}
	if opts.Speed != 0 {
		i, err := speedIndex(opts.Speed)
		if err != nil {
			return nil, err
		}
		p.speed = i
	}
	var header Entry
	first := time.Time{}
	reads := 0 // snapshots so far, the read numbers of old recordings
	n := 0
	err := p.pass(func(h Entry) { header = h }, func(e Entry) error {
		n++
		v, err := e.Decode()
		if err != nil {
			return fmt.Errorf("recording entry %d (%s): %w", n, e.Kind, err)
		}
		switch d := v.(type) {
		case nil:
			return nil // a kind this octop does not know
		case model.Snapshot, Failure:
			p.hasSnaps = true
			reads++
			p.snaps.last = max(p.snaps.last, cmp.Or(e.Read, reads))
		case wire.Health:
			if p.health == nil {
				p.health = &d
			}
		case History:
			if p.histories == nil {
				p.histories = map[string][]wire.MessageWithParts{}
			}
			if _, ok := p.histories[d.ID]; !ok {
				p.histories[d.ID] = d.Messages // the first read, nearest the replay's start
			}
			return nil
		}
		if first.IsZero() {
			first = e.Time()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	p.start = header.Time()
	if !first.IsZero() {
		p.start = first
	}
	if !opts.Start.IsZero() {
		p.start = opts.Start
	}
	p.anchorRec, p.anchorAt = p.start, time.Now()
	return p, nil
}

// pass reads the recording once, handing its header to head and each of
// the player's entries to each, until each fails or the recording ends.
func (p *Player) pass(head func(Entry), each func(Entry) error) error {
	f, err := p.src()
	if err != nil {
		return err
	}
	defer f.Close()
	rd, err := NewEntryReader(f)
	if err != nil {
		return err
	}
	head(rd.Header())
	for {
		e, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if p.keep(e) {
			if err := each(e); err != nil {
				return err
			}
		}
	}
}

// speedIndex finds s among the speeds.
func speedIndex(s float64) (int, error) {
	for i, v := range speeds {
		if v == s {
			return i, nil
		}
	}
	return 0, fmt.Errorf("--speed %g is not one of 0.25, 0.5, 1, 2, 4, 8, 16, 32", s)
}

// Clock is the recording's time now.
func (p *Player) Clock() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.clockLocked(time.Now())
}

func (p *Player) clockLocked(now time.Time) time.Time {
	if p.paused {
		return p.anchorRec
	}
	return p.anchorRec.Add(scale(now.Sub(p.anchorAt), speeds[p.speed]))
}

// reanchor fixes the recording's time at now before a control changes.
func (p *Player) reanchor(now time.Time) {
	p.anchorRec, p.anchorAt = p.clockLocked(now), now
}

// seek sets the recording's time to t (a loop's start).
func (p *Player) seek(t time.Time) {
	p.mu.Lock()
	p.anchorRec, p.anchorAt = t, time.Now()
	p.mu.Unlock()
}

func (p *Player) control(f func()) {
	p.mu.Lock()
	p.reanchor(time.Now())
	f()
	p.mu.Unlock()
	select {
	case p.changed <- struct{}{}:
	default:
	}
}

// Toggle pauses or resumes, and reports whether it is paused now.
func (p *Player) Toggle() (paused bool) {
	p.control(func() { p.paused = !p.paused; paused = p.paused })
	return paused
}

// Faster steps the speed up (to at most 32×) and returns it.
func (p *Player) Faster() (speed float64) {
	p.control(func() { p.speed = min(p.speed+1, len(speeds)-1); speed = speeds[p.speed] })
	return speed
}

// Slower steps the speed down (to at least 0.25×) and returns it.
func (p *Player) Slower() (speed float64) {
	p.control(func() { p.speed = max(p.speed-1, 0); speed = speeds[p.speed] })
	return speed
}

// State is whether it is paused and its speed.
func (p *Player) State() (paused bool, speed float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.paused, speeds[p.speed]
}

// Ended is closed once Run has played the last entry (never with
// Options.Loop): the screen then says the replay has ended.
func (p *Player) Ended() <-chan struct{} { return p.ended }

// Run plays the recording through send (a Batcher's Send) until its end,
// or on a loop with Options.Loop, until ctx is done. Each pass reads the
// recording from the start, an entry at a time.
func (p *Player) Run(ctx context.Context, send func(any)) {
	for first := true; ; first = false {
		if !first {
			if p.opts.OnLoop != nil {
				p.opts.OnLoop()
			}
			p.snaps.reset()
			p.seek(p.start)
		}
		reads := 0
		stopped := errors.New("stopped")
		// A read error mid-way (the file changed since it was checked)
		// ends the pass where it stands.
		err := p.pass(func(Entry) {}, func(e Entry) error {
			v, err := e.Decode()
			if err != nil || v == nil {
				return nil
			}
			switch d := v.(type) {
			case History:
				return nil // answered from p.histories
			case model.Snapshot:
				reads++
				v = answer{read: cmp.Or(e.Read, reads), snap: d}
			case Failure:
				reads++
				v = answer{read: cmp.Or(e.Read, reads), err: errors.New(d.Error)}
			}
			if !p.waitUntil(ctx, e.Time()) {
				return stopped
			}
			switch v := v.(type) {
			case answer:
				p.snaps.arrive(v)
			case wire.Health:
				// answered from p.health; the live screen asked for it
			default:
				send(v)
			}
			return nil
		})
		if err == stopped {
			return
		}
		p.snaps.end()
		if !p.opts.Loop {
			p.endOnce.Do(func() { close(p.ended) })
			<-ctx.Done()
			return
		}
		if !p.waitUntil(ctx, p.Clock().Add(p.opts.LoopPause)) {
			return
		}
	}
}

// waitUntil waits until the recording's clock reaches t, following pauses
// and speed changes, and reports whether it got there before ctx ended.
func (p *Player) waitUntil(ctx context.Context, t time.Time) bool {
	for {
		p.mu.Lock()
		paused, speed := p.paused, speeds[p.speed]
		left := t.Sub(p.clockLocked(time.Now()))
		p.mu.Unlock()
		if left <= 0 {
			return ctx.Err() == nil
		}
		var tm *time.Timer
		var timer <-chan time.Time // nil while paused: only a control wakes it
		if !paused {
			tm = time.NewTimer(wallWait(left, speed))
			timer = tm.C
		}
		select {
		case <-ctx.Done():
			return false
		case <-p.changed:
		case <-timer:
		}
		if tm != nil {
			tm.Stop()
		}
	}
}

// maxWait bounds one wait of the player: a longer one is waited in
// several, the clock read again after each.
const maxWait = time.Hour

// wallWait is how long to wait on the wall clock for left of the
// recording's time to pass at speed: between a nanosecond and maxWait,
// whatever the gap between two entries (100 years at 0.25× overflowed a
// Duration and came out negative: the player spun).
func wallWait(left time.Duration, speed float64) time.Duration {
	return max(min(scale(left, 1/speed), maxWait), time.Nanosecond)
}

// scale is d times f, held within what a Duration can say.
func scale(d time.Duration, f float64) time.Duration {
	v := float64(d) * f
	switch {
	case v >= math.MaxInt64:
		return math.MaxInt64
	case v <= math.MinInt64:
		return math.MinInt64
	}
	return time.Duration(v)
}
