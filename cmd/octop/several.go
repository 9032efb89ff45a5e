package main

import (
	"context"
	"fmt"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/alert"
	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/discover"
	"github.com/octop-dev/octop/feed"
	"github.com/octop-dev/octop/ops"
	"github.com/octop-dev/octop/ui"
	"github.com/octop-dev/octop/ui/servers"
	"github.com/octop-dev/octop/watchdog"
)

// several is the wiring of a screen of several servers (ui/servers): a
// client, an event stream and a ui.Model each, so one server down, slow
// or refusing the password holds up nothing of the others.
type several struct {
	g      globalFlags
	wd     watchdog.Config
	notify alert.Mode
	p      *tea.Program
	hooks  []*alert.Hook
	// rec is --record's file, which every server's tap writes to (nil
	// when not recording).
	rec *recorder
	// started, when set, is handed the program before it runs (a test
	// quits it).
	started func(*tea.Program)
}

// runSeveral watches several servers in one screen. --discover adds the
// servers announced on the local network as they appear; --record writes
// what every server sends into one file.
func runSeveral(g globalFlags, stderr io.Writer) int {
	return (&several{g: g}).run(stderr, programOptions())
}

// run is runSeveral with the program's options (a test's give it no
// terminal).
func (s *several) run(stderr io.Writer, progOpts []tea.ProgramOption) int {
	g := s.g
	var err error
	if s.wd, s.notify, err = g.watchdog(); err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return 2
	}
	opts, err := g.conn.resolveAll(client.OptionsFromEnv())
	if err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return 1
	}
	if s.rec, err = openRecording(g.Record); err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return 1
	}
	defer s.rec.close(stderr)
	clients := make([]*client.Client, len(opts))
	recs := make([]*recorder, len(opts))
	screens := make([]ui.Model, len(opts))
	for i, o := range opts {
		o.Global = g.AllProjects
		recs[i] = s.rec.also(&o)
		recs[i].announce()
		if clients[i], err = client.New(o); err != nil {
			fmt.Fprintln(stderr, "octop:", err)
			return 2
		}
		screens[i] = s.screen(i, clients[i], recs[i])
	}
	defer func() {
		for _, h := range s.hooks {
			h.Stop() // quitting kills a hook still running
		}
	}()
	s.p = tea.NewProgram(servers.New(screens, noColor()), progOpts...)
	if s.started != nil {
		s.started(s.p)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The recording ends before the streams are cancelled: their goodbye
	// ("disconnected") is octop quitting, not a server going down, and a
	// replay would end with every server marked down.
	defer s.rec.close(stderr)
	for i, c := range clients {
		s.stream(ctx, i, c, recs[i])
	}
	if g.Discover {
		go s.discover(ctx, clients)
	}
	if _, err := s.p.Run(); err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return 1
	}
	return 0
}

// screen is server i's screen, with the watchdog and --exec hook the flags
// set (the hook's failures shown on that screen).
func (s *several) screen(i int, c *client.Client, rec *recorder) ui.Model {
	wd := s.wd
	o := ui.Options{Ops: rec.ops(ops.New(c)), ServerURL: c.BaseURL(), AllProjects: s.g.AllProjects, NoColor: noColor(),
		Getenv: os.Getenv, Watchdog: &wd, Notify: s.notify}
	if s.g.wd.exec != "" {
		h := alert.NewHook(s.g.wd.exec, c.BaseURL(), s.g.wd.hookTimeout, func(r alert.HookResult) {
			if r.Err != nil {
				s.p.Send(servers.Msg{Server: i, Msg: ui.FlashMsg{Text: hookFailure(r), Error: true}})
			}
		})
		s.hooks = append(s.hooks, h)
		o.OnEvent = h.Run
	}
	return ui.New(o)
}

// stream feeds server i's events to its screen until ctx ends, through
// its recorder.
func (s *several) stream(ctx context.Context, i int, c *client.Client, rec *recorder) {
	b := feed.NewBatcher(func(v tea.Msg) { s.p.Send(servers.Msg{Server: i, Msg: v}) }, feed.FrameInterval)
	go func() { _ = c.Stream(ctx, rec.send(b.Send)) }()
}

// discover adds each server announced on the local network (--discover)
// that is not shown yet, numbered after the others. It runs on one
// goroutine, so the numbers follow the order of the Added messages.
func (s *several) discover(ctx context.Context, known []*client.Client) {
	shown := map[string]bool{}
	for _, c := range known {
		shown[c.BaseURL()] = true
	}
	next := len(known)
	discover.Watch(ctx, discover.Every, func(url string) {
		o := client.Options{BaseURL: url, Global: s.g.AllProjects}
		rec := s.rec.also(&o) // a tap writes nothing until the stream does
		c, err := client.New(o)
		if err != nil || shown[c.BaseURL()] {
			return
		}
		shown[c.BaseURL()] = true
		rec.announce()
		s.p.Send(servers.Added{Screen: s.screen(next, c, rec)})
		s.stream(ctx, next, c, rec)
		next++
	})
}
