package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/record"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/drive"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/termtest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// showcaseScreen is the screen over the fake showing its showcase (AddShowcase),
// run by the test driver (internal/testkit/drive) on its clock.
type showcaseScreen struct {
	t   *testing.T
	m   Model
	clk *drive.Clock
	srv *opencodetest.Server
	sc  opencodetest.Showcase
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
	o := client.Options{BaseURL: srv.URL(), Timeout: testwait.Scale(10 * time.Second)}
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
	clock := func() time.Time { return time.UnixMilli(1795284000000 + 90_000) }
	clk := drive.NewClock(t, clock())
	hs := &showcaseScreen{t: t, srv: srv, sc: sc, clk: clk,
		m: New(Options{Server: server, ServerURL: srv.URL(), Clock: clock, Timer: clk, NoColor: true, ReadOnly: setup.readOnly})}
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

// send runs msg through Update, then the commands that follow, to their
// end, feeding back what they answer: the server's replies, the screen's
// notices and selections. Timers wait on the screen's test clock.
func (hs *showcaseScreen) send(msg tea.Msg) {
	hs.t.Helper()
	hs.m = drive.New(hs.t, hs.m, hs.clk).Send(msg).Model()
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
