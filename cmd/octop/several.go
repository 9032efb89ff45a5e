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
}

// runSeveral watches several servers in one screen. --discover adds the
// servers announced on the local network as they appear.
func runSeveral(g globalFlags, stderr io.Writer) int {
	if g.Record != "" {
		fmt.Fprintln(stderr, "octop: --record records one server; give one --server")
		return 2
	}
	s := &several{g: g}
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
	clients := make([]*client.Client, len(opts))
	screens := make([]ui.Model, len(opts))
	for i, o := range opts {
		o.Global = g.AllProjects
		if clients[i], err = client.New(o); err != nil {
			fmt.Fprintln(stderr, "octop:", err)
			return 2
		}
		screens[i] = s.screen(i, clients[i])
	}
	defer func() {
		for _, h := range s.hooks {
			h.Stop() // quitting kills a hook still running
		}
	}()
	s.p = tea.NewProgram(servers.New(screens, noColor()), programOptions()...)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i, c := range clients {
		s.stream(ctx, i, c)
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
func (s *several) screen(i int, c *client.Client) ui.Model {
	wd := s.wd
	o := ui.Options{Ops: ops.New(c), ServerURL: c.BaseURL(), AllProjects: s.g.AllProjects, NoColor: noColor(),
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

// stream feeds server i's events to its screen until ctx ends.
func (s *several) stream(ctx context.Context, i int, c *client.Client) {
	b := feed.NewBatcher(func(v tea.Msg) { s.p.Send(servers.Msg{Server: i, Msg: v}) }, feed.FrameInterval)
	go func() { _ = c.Stream(ctx, b.Send) }()
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
		c, err := client.New(client.Options{BaseURL: url, Global: s.g.AllProjects})
		if err != nil || shown[c.BaseURL()] {
			return
		}
		shown[c.BaseURL()] = true
		s.p.Send(servers.Added{Screen: s.screen(next, c)})
		s.stream(ctx, next, c)
		next++
	})
}
