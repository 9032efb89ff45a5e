package ui

import (
	"bytes"
	"context"
	"errors"
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

// hostileScreen is the screen over a Hostile fake showing its showcase,
// with the driver that runs the screen's commands.
type hostileScreen struct {
	t   *testing.T
	m   Model
	srv *opencodetest.Server
	sc  opencodetest.Showcase
	cs  *countingServer
}

func newHostileScreen(t *testing.T, w, h int) *hostileScreen {
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
func newShowcaseScreen(t *testing.T, w, h int, setup screenSetup) *hostileScreen {
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
	hs := &hostileScreen{t: t, srv: srv, sc: sc, cs: cs,
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
func (hs *hostileScreen) send(msg tea.Msg) {
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
func (hs *hostileScreen) run(c tea.Cmd) tea.Msg {
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

func (hs *hostileScreen) keys(keys ...string) {
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
func (hs *hostileScreen) check(where string, shown bool) {
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
func (hs *hostileScreen) selectSession(id string) {
	hs.t.Helper()
	hs.send(SelectMsg{ID: id})
	if hs.m.tree.Selected() != id {
		hs.t.Fatalf("could not select %s:\n%s", id, screen(hs.m))
	}
}

// TestHostileServerOnEveryView drives every part of the screen over a
// server whose every string carries escape sequences, C1 and bidi
// controls, backspaces and bells: the tree and the detail of every
// session, the header, the footer's help, notices and filter, and every
// room (launch, resume, busy, find, abort, abort subtree, inbox, result,
// transcript, files changed, timeline). Nothing of it may reach the
// terminal but as visible text.
func TestHostileServerOnEveryView(t *testing.T) {
	for _, size := range [][2]int{{160, 50}, {80, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			hs := newHostileScreen(t, size[0], size[1])
			hs.check("the first screen", true)
			if !strings.Contains(screen(hs.m), "OpenCode ␛]0;pwned") {
				t.Errorf("the header does not show the server's version, cleaned:\n%s", screen(hs.m))
			}
			sessions := []string{hs.sc.Root, hs.sc.Worker, hs.sc.Failed, hs.sc.Retrying, hs.sc.Waiting,
				hs.sc.Done, hs.sc.Orphan, hs.sc.BadID}
			for _, id := range sessions {
				hs.selectSession(id)
				hs.check("the tree and detail of "+id, true)
				hs.keys("tab")
				hs.check("the focused detail of "+id, true)
				hs.keys("tab")
			}
			hs.keys("?")
			hs.check("the full help", false)
			hs.keys("esc")
			hs.send(FlashMsg{Text: "--exec for session.failed ses_x: hook failed: exit status 1: " + opencodetest.Payload, Error: true})
			hs.check("a failed hook's notice", true)
			hs.keys("/")
			hs.send(tea.PasteMsg{Content: opencodetest.Payload})
			hs.check("the filter being typed", false)
			hs.keys("enter")
			hs.check("the filter kept", false)
			hs.keys("esc")

			rooms := []struct {
				session, keys string
				next          []string // keys pressed in the room, checked after each
			}{
				{hs.sc.Root, "n", []string{"tab", "down"}},
				{"", "N", nil},
				{hs.sc.Done, "r", []string{"tab"}},
				{hs.sc.Root, "r", nil},
				{hs.sc.Root, "x", nil},
				{hs.sc.Root, "X", nil},
				{hs.sc.Root, "i", []string{"down", "t", "paste", "esc", "1", "up", "a"}},
				{hs.sc.Done, "o", nil},
				{hs.sc.Failed, "o", nil},
				{hs.sc.Retrying, "o", nil},
				{hs.sc.Root, "o", nil},
				{hs.sc.Root, "t", []string{"G", "g", "j", "enter", "j", "j", "j", "enter", "/", "paste", "enter", "n"}},
				{hs.sc.Failed, "t", nil},
				{hs.sc.Done, "t", nil},
				{hs.sc.Root, "d", []string{"j"}},
				{hs.sc.Root, "T", nil},
				{hs.sc.Orphan, "T", nil},
			}
			for _, r := range rooms {
				where := r.keys + " on " + r.session
				if r.session != "" {
					hs.selectSession(r.session)
				}
				hs.keys(r.keys)
				if hs.m.dialog == nil {
					t.Errorf("%s opened no room:\n%s", where, screen(hs.m))
					continue
				}
				hs.check(where, r.keys != "N")
				for _, k := range r.next {
					if k == "paste" {
						hs.send(tea.PasteMsg{Content: opencodetest.Payload + "typed"})
					} else {
						hs.keys(k)
					}
					hs.check(where+", then "+k, false)
				}
				hs.keys("esc")
				if hs.m.dialog != nil {
					hs.keys("esc")
				}
			}
			// R: a typed task_id, found.
			hs.keys("R")
			hs.send(tea.PasteMsg{Content: hs.sc.Done})
			hs.keys("enter")
			hs.check("R on a typed task_id", true)
			hs.keys("esc", "esc")

			// The header's errors: the stream's and the snapshot's.
			hs.send(wire.ConnState{State: wire.Disconnected, Err: errors.New("lost: " + opencodetest.Payload), RetryAt: time.UnixMilli(1795284000000 + 95_000), Attempt: 1})
			hs.check("the header's connection error", true)
			hs.srv.Fail("GET /session", 500, "boom")
			hs.send(wire.ConnState{State: wire.Connected, Attempt: 2})
			hs.send(wire.ResyncNeeded{})
			hs.check("the header's snapshot error", true)
			hs.send(wire.DecodeError{Err: errors.New("bad event " + opencodetest.Payload)})
			hs.check("a malformed event's notice", true)
		})
	}
}

// tappedServer records the screen's reads, as --record does.
type tappedServer struct {
	task.Server
	reads record.Backend
	tap   record.Tap
}

func (t tappedServer) Snapshot(ctx context.Context) (model.Snapshot, error) {
	return t.reads.Snapshot(ctx)
}

func (t tappedServer) Health(ctx context.Context) (wire.Health, error) { return t.reads.Health(ctx) }

func (t tappedServer) History(ctx context.Context, id, dir string) ([]wire.MessageWithParts, error) {
	msgs, err := t.Server.History(ctx, id, dir)
	if err == nil {
		t.tap.History(id, msgs)
	}
	return msgs, err
}

// TestHostileRecordingOnReplay records the screen over the hostile server,
// then plays the recording back (--replay): a shared recording must not
// attack whoever plays it, on the screen or in the rooms it answers.
func TestHostileRecordingOnReplay(t *testing.T) {
	var buf bytes.Buffer
	rec, err := record.NewWriter(&buf, "test", 0)
	if err != nil {
		t.Fatal(err)
	}
	recorded := newShowcaseScreen(t, 160, 50, screenSetup{hostile: true, rec: rec})
	for _, id := range []string{recorded.sc.Done, recorded.sc.Failed, recorded.sc.Orphan} {
		recorded.selectSession(id) // the screen reads histories as it goes
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := record.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	p, err := record.New(r, record.Options{Speed: 32})
	if err != nil {
		t.Fatal(err)
	}
	seen := record.NewRecorded()
	cs := &countingServer{Server: record.ReadOnly(p.Backend(), seen, "replay")}
	hs := &hostileScreen{t: t, sc: recorded.sc, cs: cs, m: New(Options{Demo: true, ReadOnly: "replay: read-only",
		RecordedHistory: p.HasHistories(), Server: cs, Clock: p.Clock, NoColor: true})}
	hs.send(tea.WindowSizeMsg{Width: 160, Height: 50})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	played := make(chan any, 1024)
	go p.Run(ctx, func(msg any) { seen.Observe(msg); played <- msg })
	for done := false; !done; {
		select {
		case msg := <-played:
			if env, ok := msg.(wire.Envelope); ok {
				_, done = env.Event.(wire.TodoUpdated) // the recording's last event
				hs.send(EventsMsg{env})
			} else {
				hs.send(msg)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("the replay did not reach the recording's last event")
		}
	}
	hs.check("the replay's screen", true)
	for _, id := range []string{hs.sc.Root, hs.sc.Worker, hs.sc.Failed, hs.sc.Retrying, hs.sc.Waiting, hs.sc.Done, hs.sc.Orphan} {
		hs.selectSession(id)
		hs.check("the replay's tree and detail of "+id, true)
	}
	for _, r := range []struct{ session, key string }{{hs.sc.Done, "o"}, {hs.sc.Failed, "t"}, {hs.sc.Root, "d"},
		{hs.sc.Root, "T"}, {hs.sc.Root, "i"}, {hs.sc.Root, "x"}} {
		hs.selectSession(r.session)
		hs.keys(r.key)
		hs.check("the replay's "+r.key+" on "+r.session, r.key != "x")
		hs.keys("esc")
		if hs.m.dialog != nil {
			hs.keys("esc")
		}
	}
}

// TestHostileServerURLInWindowTitle: the server's URL (from --server or
// the config file) goes into the terminal's window title, itself an
// escape sequence: a control in it would end that sequence and start
// another.
func TestHostileServerURLInWindowTitle(t *testing.T) {
	m := New(Options{ServerURL: "http://box:4096/" + opencodetest.Payload, NoColor: true, Clock: fixedClock})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 30})
	v := m.View()
	if bad := termtest.Screen(v.WindowTitle); bad != "" {
		t.Errorf("the window title holds %s", bad)
	}
	if bad := termtest.Screen(v.Content); bad != "" {
		t.Errorf("the screen holds %s", bad)
	}
}
