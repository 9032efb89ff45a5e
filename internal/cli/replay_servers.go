package cli

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/feed"
	"github.com/octop-dev/octop/internal/record"
	"github.com/octop-dev/octop/ui"
	"github.com/octop-dev/octop/ui/servers"
)

// severalReplay plays a recording of several servers (--record with
// several --server) in the screen of several servers: a Player and a
// read-only screen per server, driven together by the replay's keys.
type severalReplay struct {
	screen  servers.Screen
	players record.Group
	seen    []*record.Recorded
}

// newSeveralReplay builds the screen for rec, one group per server in
// the order they first appear in it, each header naming the recording
// (source, with "(cut short)" when it is).
func newSeveralReplay(rec replaySource, opts record.Options) (severalReplay, error) {
	g, err := record.PlayGroup(rec.src, opts)
	if err != nil {
		return severalReplay{}, err
	}
	r := severalReplay{players: g, seen: make([]*record.Recorded, len(g))}
	label, source := rec.label, rec.header()
	screens := make([]ui.Model, len(g))
	for i, s := range g.Servers() {
		p := g[i]
		r.seen[i] = record.NewRecorded()
		screens[i] = ui.New(ui.Options{Demo: true, ReadOnly: label + ": read-only", Source: source, RecordedHistory: p.HasHistories(), History: rec.history,
			Server: record.ReadOnly(p.Backend(), r.seen[i], label), Clock: p.Clock, ServerURL: s, NoColor: noColor(),
			MoreKeys: append(servers.DefaultKeyMap().ShortHelp(), servers.DefaultReplayKeyMap().ShortHelp()...)})
	}
	r.screen = servers.NewScreen(servers.New(screens, noColor()), g, label).WithHint(replayHint(label, rec.truncated))
	return r, nil
}

// run plays every server's part until ctx ends, each to its own screen
// through send (a program's Send).
func (r severalReplay) run(ctx context.Context, send func(tea.Msg)) {
	for i, p := range r.players {
		b := feed.NewBatcher(func(v tea.Msg) { send(servers.Msg{Server: i, Msg: v}) }, feed.FrameInterval)
		seen := r.seen[i]
		go p.Run(ctx, func(msg any) { seen.Observe(msg); b.Send(msg) })
		go sayEnded(ctx, p, b.Send) // this server's part is over
	}
}

func (r severalReplay) model() tea.Model { return r.screen }
