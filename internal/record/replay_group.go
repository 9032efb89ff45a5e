package record

import (
	"fmt"
)

// Group is the Players of one recording's servers, one each, driven
// together: space, + and - pause and change the speed of all of them,
// and they share the recording's start, so each plays its server's
// entries at the moment they were recorded.
type Group []*Player

// NewGroup makes a Player for each server of rec (Recording.Of), in
// rec.Servers' order: a recording held in memory.
func NewGroup(rec Recording, opts Options) (Group, error) { return PlayGroup(rec.Source(), opts) }

// PlayGroup makes a Player for each server of the recording src, in the
// order they first appear in it (Scan), each playing that server's
// entries (as Recording.Of picks them).
func PlayGroup(src Source, opts Options) (Group, error) {
	if opts.Speed != 0 {
		if _, err := speedIndex(opts.Speed); err != nil {
			return nil, err
		}
	}
	info, err := Scan(src)
	if err != nil {
		return nil, err
	}
	if opts.Start.IsZero() {
		opts.Start = info.First
	}
	g := make(Group, len(info.Servers))
	for i, s := range info.Servers {
		first := i == 0
		p, err := playServer(src, func(e Entry) bool { return e.Server == s || (e.Server == "" && first) }, opts)
		if err != nil {
			return nil, fmt.Errorf("server %s: %w", s, err)
		}
		p.server = s
		g[i] = p
	}
	return g, nil
}

// Servers are the players' servers, in order.
func (g Group) Servers() []string {
	out := make([]string, len(g))
	for i, p := range g {
		out[i] = p.server
	}
	return out
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
