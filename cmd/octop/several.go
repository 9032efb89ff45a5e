package main

import (
	"context"
	"fmt"
	"io"

	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/feed"
	"github.com/octop-dev/octop/ops"
	"github.com/octop-dev/octop/ui"
	"github.com/octop-dev/octop/ui/servers"
)

// runSeveral watches several servers in one screen (ui/servers): a
// client, an event stream and a ui.Model each, so one server down, slow
// or refusing the password holds up nothing of the others.
func runSeveral(g globalFlags, stderr io.Writer) int {
	if g.Record != "" {
		fmt.Fprintln(stderr, "octop: --record records one server; give one --server")
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
		c, err := client.New(o)
		if err != nil {
			fmt.Fprintln(stderr, "octop:", err)
			return 2
		}
		clients[i] = c
		screens[i] = ui.New(ui.Options{Ops: ops.New(c), ServerURL: c.BaseURL(), AllProjects: g.AllProjects, NoColor: noColor()})
	}
	p := tea.NewProgram(servers.New(screens, noColor()))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i, c := range clients {
		b := feed.NewBatcher(func(v tea.Msg) { p.Send(servers.Msg{Server: i, Msg: v}) }, feed.FrameInterval)
		go func() { _ = c.Stream(ctx, b.Send) }()
	}
	if _, err := p.Run(); err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return 1
	}
	return 0
}
