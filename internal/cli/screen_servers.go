package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/alert"
	"github.com/octop-dev/octop/internal/discover"
	"github.com/octop-dev/octop/internal/feed"
	"github.com/octop-dev/octop/internal/hook"
	"github.com/octop-dev/octop/internal/renderer"
	"github.com/octop-dev/octop/internal/watchdog"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui"
	"github.com/octop-dev/octop/ui/servers"
)

// several is the wiring of a screen of several servers (internal/servers): a
// client, an event stream and a ui.Model each, so one server down, slow
// or refusing the password holds up nothing of the others.
type several struct {
	g      globalFlags
	wd     watchdog.Config
	notify alert.Mode
	p      *renderer.Program
	hooks  []*hook.Hook
	// rec is --record's file, which every server's tap writes to (nil
	// when not recording).
	rec *recorder
	// started, when set, is handed the program before it runs (a test
	// quits it).
	started func(*renderer.Program)
}

// runSeveral watches several servers in one screen. --discover adds the
// servers announced on the local network as they appear; --record writes
// what every server sends into one file.
func runSeveral(g globalFlags, stderr io.Writer) int {
	return (&several{g: g}).run(stderr, screenOptions())
}

// run is runSeveral with the program's options (a test's give it no
// terminal).
func (s *several) run(stderr io.Writer, o renderer.Options) int {
	w, code := s.connect(stderr)
	defer s.rec.close(stderr)
	if code != 0 {
		return code
	}
	defer func() {
		for _, h := range s.hooks {
			h.Stop() // quitting kills a hook still running
		}
	}()
	s.p = newProgram(servers.New(w.screens, noColor()), o)
	if s.started != nil {
		s.started(s.p)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The recording ends before the streams are cancelled: their goodbye
	// ("disconnected") is octop quitting, not a server going down, and a
	// replay would end with every server marked down.
	defer s.rec.close(stderr)
	w.stream(ctx, s.p.Send)
	if s.g.Discover {
		go s.discover(ctx, w.clients)
	}
	if _, err := s.p.Run(); err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return 1
	}
	return 0
}

// watching is the servers a screen of several watches: each one's
// client, recorder (nil when not recording) and screen.
type watching struct {
	clients []*client.Client
	recs    []*recorder
	screens []ui.Model
}

// connect makes a client, recorder and screen for each server the flags
// name; code is the exit code when it cannot, 0 when it can.
func (s *several) connect(stderr io.Writer) (w watching, code int) {
	var err error
	if s.wd, s.notify, err = s.g.watchdog(); err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return w, 2
	}
	opts, err := s.g.conn.resolveAll(client.OptionsFromEnv())
	if err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return w, 1
	}
	if s.rec, err = openRecording(s.g.Record); err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return w, 1
	}
	w = watching{clients: make([]*client.Client, len(opts)), recs: make([]*recorder, len(opts)), screens: make([]ui.Model, len(opts))}
	for i, o := range opts {
		o.Global = s.g.AllProjects
		paced(&o)
		s.flashUndecodable(&o, i)
		w.recs[i] = s.rec.also(&o)
		w.recs[i].announce()
		if w.clients[i], err = client.New(o); err != nil {
			fmt.Fprintln(stderr, "octop:", err)
			return w, 2
		}
		w.screens[i] = s.screen(i, w.clients[i], w.recs[i])
	}
	return w, 0
}

// stream starts every server's event stream, each to its screen through
// send (the program's Send), until ctx ends.
func (w watching) stream(ctx context.Context, send func(tea.Msg)) {
	for i, c := range w.clients {
		streamTo(ctx, send, i, c, w.recs[i])
	}
}

// screen is server i's screen, with the watchdog and --exec hook the flags
// set (the hook's failures shown on that screen).
func (s *several) screen(i int, c *client.Client, rec *recorder) ui.Model {
	wd := s.wd
	policy, _ := s.g.history.policy() // checked by runScreen
	o := screenOn(c, rec, ui.Options{ServerURL: c.BaseURL(), History: policy, AllProjects: s.g.AllProjects, NoColor: noColor(),
		Getenv: os.Getenv, Watchdog: &wd, Notify: s.notify, MoreKeys: servers.DefaultKeyMap().ShortHelp()})
	if s.g.wd.exec != "" {
		h := hook.New(s.g.wd.exec, c.BaseURL(), s.g.wd.hookTimeout, func(r hook.Result) {
			if r.Err != nil {
				s.p.Send(servers.Msg{Server: i, Msg: ui.FlashMsg{Text: hookFailure(r), Error: true}})
			}
		})
		s.hooks = append(s.hooks, h)
		o.OnEvent = h.Run
	}
	return ui.New(o)
}

// flashUndecodable shows on server i's screen what it sends that does
// not decode (client.Options.Undecodable). s.p is made before anything
// is read.
func (s *several) flashUndecodable(o *client.Options, i int) {
	o.Undecodable = func(u wire.Undecodable) { s.p.Send(servers.Msg{Server: i, Msg: undecodableFlash(u)}) }
}

// streamTo feeds server i's events to its screen through send until ctx
// ends, through its recorder. Each server has its own stream and
// batcher: one slow or down holds up no other.
func streamTo(ctx context.Context, send func(tea.Msg), i int, c *client.Client, rec *recorder) {
	b := feed.NewBatcher(func(v tea.Msg) { send(servers.Msg{Server: i, Msg: v}) }, 0) // paced: CaughtUp flushes
	go func() { _ = c.Stream(ctx, rec.send(b.Send)) }()
}

// discover adds each server announced on the local network (--discover),
// and OpenCode 2.0's service.json, that is not shown yet, numbered after the others. It runs on one
// goroutine, so the numbers follow the order of the Added messages.
func (s *several) discover(ctx context.Context, known []*client.Client) {
	shown := map[string]bool{}
	for _, c := range known {
		shown[c.BaseURL()] = true
	}
	next := len(known)
	add := func(o client.Options) {
		o.Global, o.ReadOnly = s.g.AllProjects, s.g.conn.readOnly
		paced(&o)
		s.flashUndecodable(&o, next)
		rec := s.rec.also(&o) // a tap writes nothing until the stream does
		c, err := client.New(o)
		if err != nil || shown[c.BaseURL()] {
			return
		}
		shown[c.BaseURL()] = true
		rec.announce()
		s.p.Send(servers.Added{Screen: s.screen(next, c, rec)})
		streamTo(ctx, s.p.Send, next, c, rec)
		next++
	}
	// OpenCode 2.0's own service, announced in a file rather than on the
	// network, with the password it takes.
	if l, ok, err := discover.ReadLocal(discover.ServiceFile(os.Getenv)); err == nil && ok {
		add(localOptions(client.Options{}, l))
	}
	discover.Watch(ctx, discover.Every, func(url string) { add(client.Options{BaseURL: url}) })
}
