package ui

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/opencodetest"
	"github.com/octop-dev/octop/internal/record"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/termtest"
	"github.com/octop-dev/octop/internal/testwait"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// countingServer counts the calls made to the server, so the driver can
// tell a command that reads the server (wait for it) from a timer (drop
// it).
type countingServer struct {
	task.Server
	calls atomic.Int64
}

func (c *countingServer) Snapshot(ctx context.Context) (model.Snapshot, error) {
	c.calls.Add(1)
	return c.Server.Snapshot(ctx)
}

func (c *countingServer) Health(ctx context.Context) (wire.Health, error) {
	c.calls.Add(1)
	return c.Server.Health(ctx)
}

func (c *countingServer) Agents(ctx context.Context) ([]wire.Agent, error) {
	c.calls.Add(1)
	return c.Server.Agents(ctx)
}

func (c *countingServer) Find(ctx context.Context, id string) (wire.Session, bool, error) {
	c.calls.Add(1)
	return c.Server.Find(ctx, id)
}

func (c *countingServer) Result(ctx context.Context, id string) (task.Result, error) {
	c.calls.Add(1)
	return c.Server.Result(ctx, id)
}

func (c *countingServer) Messages(ctx context.Context, id string, limit int) ([]wire.MessageWithParts, bool, error) {
	c.calls.Add(1)
	return c.Server.Messages(ctx, id, limit)
}

func (c *countingServer) History(ctx context.Context, id, dir string) ([]wire.MessageWithParts, error) {
	c.calls.Add(1)
	return c.Server.History(ctx, id, dir)
}

// showcaseScreen is the screen over the fake showing its showcase (AddShowcase),
// with the driver that runs the screen's commands.
type showcaseScreen struct {
	t   *testing.T
	m   Model
	srv *opencodetest.Server
	sc  opencodetest.Showcase
	cs  *countingServer
}

// newHostileScreen is the screen over the hostile fake's showcase.
func newHostileScreen(t *testing.T, w, h int) *showcaseScreen {
	return newShowcaseScreen(t, w, h, screenSetup{hostile: true})
}

// screenSetup says how newShowcaseScreen sets the screen up.
type screenSetup struct {
	hostile bool           // the fake is Hostile
	rec     *record.Writer // record what the screen receives, as --record does
	// readOnly is the screen's Options.ReadOnly, its server then
	// task.ReadOnly, as with --read-only.
	readOnly string
}

// newShowcaseScreen is the screen over a fake showing its showcase.
func newShowcaseScreen(t *testing.T, w, h int, setup screenSetup) *showcaseScreen {
	rec := setup.rec
	srv := opencodetest.New(t, opencodetest.Options{Hostile: setup.hostile})
	sc := srv.AddShowcase()
	o := client.Options{BaseURL: srv.URL(), Timeout: 10 * time.Second}
	var server task.Server
	tap := record.Tap{}
	if rec != nil {
		tap = rec.Tap(srv.URL())
		o.Stream.Raw = tap.Raw
	}
	c, err := client.New(o)
	if err != nil {
		t.Fatal(err)
	}
	server = live.New(c)
	if setup.readOnly != "" {
		server = task.ReadOnly(server, setup.readOnly)
	}
	if rec != nil {
		server = tappedServer{Server: server, reads: tap.Backend(server), tap: tap}
	}
	cs := &countingServer{Server: server}
	clock := func() time.Time { return time.UnixMilli(1795284000000 + 90_000) }
	hs := &showcaseScreen{t: t, srv: srv, sc: sc, cs: cs,
		m: New(Options{Server: cs, ServerURL: srv.URL(), Clock: clock, NoColor: true, ReadOnly: setup.readOnly})}
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	for _, msg := range []tea.Msg{wire.ConnState{State: wire.Connected, Attempt: 1}, wire.ResyncNeeded{}} {
		if rec != nil {
			tap.Send(func(any) {})(msg)
		}
		hs.send(msg)
	}
	// What only comes by the stream: a todo list, a live retry.
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	envs := make(chan wire.Envelope, 16)
	go func() {
		_ = c.Stream(ctx, func(v any) {
			if e, ok := v.(wire.Envelope); ok {
				envs <- e
			}
		})
	}()
	testwait.Eventually(t, func() bool { return srv.Streams() == 1 }, 10*time.Second, "the stream")
	srv.Emit("todo.updated", map[string]any{"sessionID": sc.Worker, "todos": []wire.Todo{
		{Content: "run the linter", Status: wire.TodoCompleted, Priority: "high"},
		{Content: "fix what it finds", Status: wire.TodoInProgress, Priority: "medium"}}})
	for {
		e := <-envs
		if _, ok := e.Event.(wire.TodoUpdated); ok {
			hs.send(EventsMsg{e})
			break
		}
	}
	return hs
}

// send runs msg through Update, then the commands that follow, feeding
// back what they answer: the server's replies, the screen's notices and
// selections. Timers are dropped (see run).
func (hs *showcaseScreen) send(msg tea.Msg) {
	hs.t.Helper()
	nm, cmd := hs.m.Update(msg)
	hs.m = nm.(Model)
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0 && steps < 200; steps++ {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		reply := hs.run(c)
		switch r := reply.(type) {
		case nil, tickMsg, flashExpiredMsg:
			continue
		case tea.BatchMsg:
			queue = append(queue, r...)
			continue
		}
		if strings.HasPrefix(fmt.Sprintf("%T", reply), "cursor.") {
			continue
		}
		nm, next := hs.m.Update(reply)
		hs.m = nm.(Model)
		queue = append(queue, next)
	}
}

// run runs a command: to its end when it calls the server, else for a
// moment only, since a command that calls nothing and does not answer at
// once is a timer (a tick, a notice's expiry, a refresh).
func (hs *showcaseScreen) run(c tea.Cmd) tea.Msg {
	before := hs.cs.calls.Load()
	ch := make(chan tea.Msg, 1)
	go func() { ch <- c() }()
	quiet := time.After(500 * time.Millisecond)
	for {
		select {
		case msg := <-ch:
			return msg
		case <-quiet:
			if hs.cs.calls.Load() == before {
				return nil
			}
			select {
			case msg := <-ch:
				return msg
			case <-time.After(20 * time.Second):
				hs.t.Fatalf("a call to the fake server took over 20s")
			}
		}
	}
}

func (hs *showcaseScreen) keys(keys ...string) {
	hs.t.Helper()
	for _, k := range keys {
		for _, msg := range keyMsgs(k) {
			hs.send(msg)
		}
	}
}

// check fails the test if the screen holds anything a terminal would act
// on; with shown, it must also show the payload, cleaned (so the check is
// not passed by a view that never drew the hostile text).
func (hs *showcaseScreen) check(where string, shown bool) {
	hs.t.Helper()
	v := hs.m.View()
	if bad := termtest.Screen(v.Content); bad != "" {
		hs.t.Errorf("%s: the screen holds %s", where, bad)
	}
	if bad := termtest.Screen(v.WindowTitle); bad != "" {
		hs.t.Errorf("%s: the window title holds %s", where, bad)
	}
	if shown && !strings.Contains(termtest.StripSGR(v.Content), termtest.Mark) {
		hs.t.Errorf("%s: the hostile text is not on the screen, so nothing was checked:\n%s", where, screen(hs.m))
	}
}

// selectSession puts the cursor on id.
func (hs *showcaseScreen) selectSession(id string) {
	hs.t.Helper()
	hs.send(SelectMsg{ID: id})
	if hs.m.tree.Selected() != id {
		hs.t.Fatalf("could not select %s:\n%s", id, screen(hs.m))
	}
}
