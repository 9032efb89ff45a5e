// Package drive runs a Bubble Tea model in a test as its program would,
// but deterministically, so that a slow machine cannot change what a test
// sees:
//
//   - every message goes through Update, and every Cmd it returns is run
//     from an explicit queue, one at a time, to completion: none is dropped
//     for being slow, and the messages come back in a fixed order;
//   - no timer runs on its own: the screen's timers are a Clock's (pass it
//     as ui.Options.Timer), and a timer's Cmd waits on the clock until the
//     test moves it with Advance, which fires what falls due in order.
//
// A test reads as a story:
//
//	clk := drive.NewClock(t, start)
//	d := drive.New(t, ui.New(ui.Options{Server: srv, Clock: clk.Now, Timer: clk}), clk)
//	d.Send(tea.WindowSizeMsg{Width: 120, Height: 40}).
//		Press("j", "x").Expect("Abort").Press("y").
//		Advance(4 * time.Second).ExpectNot("aborted")
//
// A Cmd that blocks on purpose (a request to a server that never answers)
// blocks the driver too: run such a Cmd by hand on a goroutine of the
// test's own. Every Cmd of a screen on a Clock must be run by a Driver of
// that clock (its timers are handed to the one running them).
package drive

import (
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// hangAfter is how long a Cmd may neither return nor wait on the clock
// before the driver fails the test (scaled by OCTOP_TEST_SLOW). It only
// turns a hang into a clear failure: a Cmd that takes longer is waited for
// until then, never dropped.
const hangAfter = time.Minute

// maxSteps bounds the messages one step may deliver: a screen that keeps
// answering itself fails instead of spinning.
const maxSteps = 100000

// Driver runs a model of type M (ui.Model, servers.Model…) on a Clock.
type Driver[M tea.Model] struct {
	t     testing.TB
	m     M
	clock *Clock
	msgs  []tea.Msg
	quit  bool
}

// New drives m, whose timers are clk's.
func New[M tea.Model](t testing.TB, m M, clk *Clock) *Driver[M] {
	return &Driver[M]{t: t, m: m, clock: clk}
}

// Model is the model as the last step left it.
func (d *Driver[M]) Model() M { return d.m }

// Clock is the driver's clock.
func (d *Driver[M]) Clock() *Clock { return d.clock }

// Msgs is every message the commands of the last step produced, in the
// order they were delivered (not the messages the test sent).
func (d *Driver[M]) Msgs() []tea.Msg { return d.msgs }

// Quit says a command asked the program to quit (tea.Quit).
func (d *Driver[M]) Quit() bool { return d.quit }

// Screen is the model's view without escape codes.
func (d *Driver[M]) Screen() string { return ansi.Strip(d.m.View().Content) }

// Init runs the model's Init commands as the program would at start.
func (d *Driver[M]) Init() *Driver[M] {
	d.t.Helper()
	d.msgs = nil
	d.deliver(work{cmd: d.m.Init()})
	return d
}

// Send delivers each message in turn, each with everything its commands
// lead to.
func (d *Driver[M]) Send(msgs ...tea.Msg) *Driver[M] {
	d.t.Helper()
	d.msgs = nil
	for _, msg := range msgs {
		d.deliver(work{msg: msg, sent: true})
	}
	return d
}

// Press presses keys by name ("enter", "esc", "tab", "up", "ctrl+s", "j",
// "N", "]": see Key), each as a step of its own.
func (d *Driver[M]) Press(keys ...string) *Driver[M] {
	d.t.Helper()
	d.msgs = nil
	for _, k := range keys {
		msg, ok := Key(k)
		if !ok {
			d.t.Fatalf("drive: no key named %q (Type types text)", k)
		}
		d.deliver(work{msg: msg, sent: true})
	}
	return d
}

// Type types text, a key press per character.
func (d *Driver[M]) Type(text string) *Driver[M] {
	d.t.Helper()
	d.msgs = nil
	for _, r := range text {
		msg, _ := Key(string(r))
		d.deliver(work{msg: msg, sent: true})
	}
	return d
}

// Paste pastes text in one message, as a terminal's bracketed paste.
func (d *Driver[M]) Paste(text string) *Driver[M] {
	d.t.Helper()
	return d.Send(tea.PasteMsg{Content: text})
}

// Advance moves the clock by, firing every timer that falls due on the
// way, earliest first, each at its own time and with everything its
// message leads to (timers those start fire too if they fall due).
func (d *Driver[M]) Advance(by time.Duration) *Driver[M] {
	d.t.Helper()
	d.msgs = nil
	until := d.clock.Now().Add(by)
	for tm := d.clock.next(until); tm != nil; tm = d.clock.next(until) {
		tm.fire <- tm.at
		if msg, done := d.await(tm.out, "a timer's command"); done && msg != nil {
			d.deliver(work{msg: msg})
		}
	}
	d.clock.set(until)
	return d
}

// Expect fails the test unless the screen shows every string in want.
func (d *Driver[M]) Expect(want ...string) *Driver[M] {
	d.t.Helper()
	sc := d.Screen()
	for _, w := range want {
		if !strings.Contains(sc, w) {
			d.t.Fatalf("the screen lacks %q:\n%s", w, sc)
		}
	}
	return d
}

// ExpectNot fails the test if the screen shows any string in unwanted.
func (d *Driver[M]) ExpectNot(unwanted ...string) *Driver[M] {
	d.t.Helper()
	sc := d.Screen()
	for _, w := range unwanted {
		if strings.Contains(sc, w) {
			d.t.Fatalf("the screen shows %q:\n%s", w, sc)
		}
	}
	return d
}

// Check fails the test with f's error, and the screen, if f returns one.
func (d *Driver[M]) Check(f func(M) error) *Driver[M] {
	d.t.Helper()
	if err := f(d.m); err != nil {
		d.t.Fatalf("%v\nthe screen:\n%s", err, d.Screen())
	}
	return d
}

// Run runs cmd as a step would (batches opened, timers handed to the
// clock) and returns the messages it yields, without delivering them.
func (d *Driver[M]) Run(cmd tea.Cmd) []tea.Msg {
	d.t.Helper()
	var out []tea.Msg
	for queue := []tea.Cmd{cmd}; len(queue) > 0; queue = queue[1:] {
		msg, done := d.run(queue[0])
		if cmds, ok := commands(msg); ok {
			queue = append(queue, cmds...)
		} else if done && msg != nil {
			out = append(out, msg)
		}
	}
	return out
}

// work is one item of a step's queue: a Cmd to run or a message to
// deliver (sent says the test sent it rather than a Cmd).
type work struct {
	cmd  tea.Cmd
	msg  tea.Msg
	sent bool
}

// deliver works through the queue from first until nothing is left to do:
// each message goes through Update and its Cmd joins the queue's end; each
// Cmd is run and its message joins the queue's end. A tea.Quit ends the
// step, as it ends the program.
func (d *Driver[M]) deliver(first work) {
	d.t.Helper()
	queue := []work{first}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > maxSteps {
			d.t.Fatalf("drive: more than %d messages in one step; the screen keeps answering itself", maxSteps)
		}
		w := queue[0]
		queue = queue[1:]
		if w.msg == nil {
			if msg, done := d.run(w.cmd); done && msg != nil {
				queue = append(queue, work{msg: msg})
			}
			continue
		}
		if cmds, ok := commands(w.msg); ok {
			for _, c := range cmds {
				queue = append(queue, work{cmd: c})
			}
			continue
		}
		d.checkBlink(w.msg)
		if !w.sent {
			d.msgs = append(d.msgs, w.msg)
		}
		switch w.msg.(type) {
		case tea.QuitMsg, tea.InterruptMsg:
			d.quit = true
			return
		}
		next, cmd := d.m.Update(w.msg)
		d.m = next.(M)
		if cmd != nil {
			queue = append(queue, work{cmd: cmd})
		}
	}
}

// result is what a Cmd's goroutine ends with.
type result struct {
	msg   tea.Msg
	panic any
	stack []byte
}

// run runs cmd on a goroutine of its own, as the program would, and waits
// until it returns (done) or waits on the clock (a timer, now filed: its
// message comes when the clock is moved past it).
func (d *Driver[M]) run(cmd tea.Cmd) (msg tea.Msg, done bool) {
	d.t.Helper()
	if cmd == nil {
		return nil, true
	}
	out := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				out <- result{panic: p, stack: debug.Stack()}
			}
		}()
		out <- result{msg: cmd()}
	}()
	return d.await(out, name(cmd))
}

// await waits for a running Cmd: its message, or its timer filed.
func (d *Driver[M]) await(out chan result, what string) (tea.Msg, bool) {
	d.t.Helper()
	hang := time.NewTimer(testwait.Scale(hangAfter))
	defer hang.Stop()
	select {
	case r := <-out:
		if r.panic != nil {
			d.t.Fatalf("drive: %s panicked: %v\n%s", what, r.panic, r.stack)
		}
		return r.msg, true
	case tm := <-d.clock.parked:
		tm.out = out
		d.clock.add(tm)
		return nil, false
	case <-hang.C:
		d.t.Fatalf("drive: %s neither returned nor waited on the clock in %v: a call that never answers, "+
			"or a timer that is not the Clock's (tea.Tick, a cursor's blink)?", what, testwait.Scale(hangAfter))
		return nil, false
	}
}

// checkBlink fails on a text cursor's blink: bubbles times it itself, so
// under a Clock the screen must not blink (ui stills its cursors then).
func (d *Driver[M]) checkBlink(msg tea.Msg) {
	d.t.Helper()
	if strings.HasPrefix(fmt.Sprintf("%T", msg), "cursor.") {
		d.t.Fatalf("drive: a text cursor blinks (%T): its timer is bubbles', not the Clock's; still it under a test", msg)
	}
}

// commands opens a tea.Batch or tea.Sequence message into its Cmds.
func commands(msg tea.Msg) ([]tea.Cmd, bool) {
	if b, ok := msg.(tea.BatchMsg); ok {
		return b, true
	}
	// tea.Sequence's message is unexported: a slice of Cmds.
	v := reflect.ValueOf(msg)
	if msg == nil || v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeFor[tea.Cmd]() {
		return nil, false
	}
	cmds := make([]tea.Cmd, v.Len())
	for i := range cmds {
		cmds[i] = v.Index(i).Interface().(tea.Cmd)
	}
	return cmds, true
}

// name is a Cmd's function, for a failure message.
func name(cmd tea.Cmd) string {
	if f := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()); f != nil {
		return "the command " + f.Name()
	}
	return "a command"
}
