package record

import (
	"fmt"
	"time"
)

// Group is the Players of one recording's servers, one each, driven
// together: space, + and - pause and change the speed of all of them,
// and they share the recording's start, so each plays its server's
// entries at the moment they were recorded.
type Group []*Player

// NewGroup makes a Player for each server of rec (Recording.Of),
// in rec.Servers' order.
func NewGroup(rec Recording, opts Options) (Group, error) {
	if opts.Speed != 0 {
		if _, err := speedIndex(opts.Speed); err != nil {
			return nil, err
		}
	}
	servers := rec.Servers()
	if opts.Start.IsZero() && len(rec.Entries) > 0 {
		opts.Start = firstTime(rec)
	}
	g := make(Group, len(servers))
	for i, s := range servers {
		p, err := New(rec.Of(s), opts)
		if err != nil {
			return nil, fmt.Errorf("server %s: %w", s, err)
		}
		g[i] = p
	}
	return g, nil
}

// firstTime is the time of rec's first entry.
func firstTime(rec Recording) time.Time {
	first := rec.Entries[0].Time()
	for _, e := range rec.Entries[1:] {
		if t := e.Time(); t.Before(first) {
			first = t
		}
	}
	return first
}

// Toggle pauses or resumes every player.
func (g Group) Toggle() (paused bool) {
	for _, p := range g {
		paused = p.Toggle()
	}
	return paused
}

// Faster steps every player's speed up.
func (g Group) Faster() (speed float64) {
	for _, p := range g {
		speed = p.Faster()
	}
	return speed
}

// Slower steps every player's speed down.
func (g Group) Slower() (speed float64) {
	for _, p := range g {
		speed = p.Slower()
	}
	return speed
}

// State is the first player's: they all change together.
func (g Group) State() (paused bool, speed float64) { return g[0].State() }
