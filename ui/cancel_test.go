package ui

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/inflight"
)

// blockingOps is a server that never answers: every call blocks until its
// context is cancelled, and says so on cancelled. Agents answers at once
// when agents is set, so a form can get as far as its submit.
type blockingOps struct {
	task.Server // nil: no other call is made here
	agents      []wire.Agent
	cancelled   chan string
}

func newBlockingOps() *blockingOps { return &blockingOps{cancelled: make(chan string, 8)} }

func (b *blockingOps) block(ctx context.Context, name string) error {
	<-ctx.Done()
	b.cancelled <- name
	return ctx.Err()
}

func (b *blockingOps) Do(ctx context.Context, r task.Request) task.Reply {
	switch r.(type) {
	case task.AgentsRequest:
		if b.agents != nil {
			return task.AgentsReply{Agents: b.agents}
		}
		return r.Refused(b.block(ctx, "agents"))
	case task.LaunchRequest:
		return r.Refused(b.block(ctx, "launch"))
	case task.ResultRequest:
		return r.Refused(b.block(ctx, "result"))
	}
	return b.Server.Do(ctx, r)
}

// intents runs cmd, a key's, and the batches it yields through m's driver,
// and returns the requests it hands the root (undelivered).
func intents(t *testing.T, m Model, cmd tea.Cmd) []inflight.Stamped {
	var out []inflight.Stamped
	for _, msg := range driver(t, m).Run(cmd) {
		if s, ok := msg.(inflight.Stamped); ok {
			out = append(out, s)
		}
	}
	return out
}

// inFlight presses k, hands the request it yields to the root, and starts
// the request's Cmd on its own goroutine, as Bubble Tea would. The reply
// arrives on the returned channel.
func inFlight(t *testing.T, m Model, k tea.Msg) (Model, <-chan tea.Msg) {
	t.Helper()
	nm, cmd := m.Update(k)
	m = nm.(Model)
	reqs := intents(t, m, cmd)
	if len(reqs) != 1 {
		t.Fatalf("%v yielded %d intents, want 1", k, len(reqs))
	}
	nm, call := m.Update(reqs[0])
	m = nm.(Model)
	if call == nil {
		t.Fatalf("the root did not start %T", reqs[0].Req)
	}
	reply := make(chan tea.Msg, 1)
	go func() { reply <- call() }()
	return m, reply
}

// within fails unless f returns in d (scaled by OCTOP_TEST_SLOW): a key
// must never wait on the server, which here never answers, so a key that
// waits would wait for ever; d only bounds how long that takes to show.
func within[T any](t *testing.T, d time.Duration, f func() T) T {
	t.Helper()
	d = testwait.Scale(d)
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(d):
		t.Fatalf("a key took longer than %v", d)
		panic("unreachable")
	}
}

func wantCancelled(t *testing.T, ops *blockingOps, name string) {
	t.Helper()
	select {
	case got := <-ops.cancelled:
		if got != name {
			t.Fatalf("cancelled %s, want %s", got, name)
		}
	case <-time.After(testwait.Scale(5 * time.Second)):
		t.Fatalf("the %s request was not cancelled", name)
	}
}

// esc while a dialog waits on the server closes it at once, cancels the
// request, and the request's late reply changes nothing.
func TestEscCancelsTheDialogsRequest(t *testing.T) {
	for _, tc := range []struct {
		name, key, call string
	}{
		{"agents loading", "N", "agents"},
		{"result loading", "o", "result"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ops := newBlockingOps()
			m := send(t, newTestModel(t, 120, 40, func(o *Options) { o.Server = ops }), fanOut())
			m, reply := inFlight(t, m, keyMsgs(tc.key)[0])
			if m.dialog == nil {
				t.Fatalf("%s opened no dialog", tc.key)
			}
			m = within(t, 5*time.Second, func() Model { return press(t, m, "esc") })
			if m.dialog != nil {
				t.Fatal("esc left the dialog open while its request was in flight")
			}
			wantCancelled(t, ops, tc.call)
			late := <-reply
			nm, cmd := m.Update(late)
			if nm.(Model).dialog != nil || cmd != nil {
				t.Fatalf("the cancelled request's reply %#v was not dropped", late)
			}
		})
	}
}

// The launch itself in flight: esc closes the form and cancels it.
func TestEscCancelsALaunchInFlight(t *testing.T) {
	ops := newBlockingOps()
	ops.agents = []wire.Agent{{Name: "general", Mode: "subagent"}}
	m := send(t, newTestModel(t, 120, 40, func(o *Options) { o.Server = ops }), fanOut())
	m, agents := inFlight(t, m, keyMsgs("N")[0])
	m = send(t, m, <-agents)
	m = press(t, m, "enter", "desc", "enter", "do it")
	m, _ = inFlight(t, m, tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	if !m.dialogBusy() {
		t.Fatal("no launch in flight after ctrl+s")
	}
	m = within(t, 5*time.Second, func() Model { return press(t, m, "esc") })
	if m.dialog != nil {
		t.Fatal("esc left the launch form open")
	}
	wantCancelled(t, ops, "launch")
}

// ctrl+c quits from anywhere: a dialog, a dialog whose request is in
// flight (which it cancels), the inbox, the full help, the filter.
func TestCtrlCQuitsFromAnywhere(t *testing.T) {
	ops := newBlockingOps()
	base := send(t, newTestModel(t, 120, 40, func(o *Options) { o.Server = ops }), fanOut())
	inflight, _ := inFlight(t, base, keyMsgs("o")[0])
	states := map[string]Model{
		"request in flight": inflight,
		"abort dialog":      press(t, base, "j", "x"),
		"inbox":             press(t, base, "i"),
		"full help":         press(t, base, "?"),
		"filter":            press(t, base, "/", "li"),
	}
	for name, m := range states {
		if name != "filter" && name != "full help" && m.dialog == nil {
			t.Fatalf("%s: no dialog open", name)
		}
		cmd := within(t, 5*time.Second, func() tea.Cmd { _, c := m.Update(keyMsgs("ctrl+c")[0]); return c })
		if !isQuit(cmd) {
			t.Errorf("%s: ctrl+c did not quit", name)
		}
	}
	wantCancelled(t, ops, "result")
}

// esc closes the full help too.
func TestEscClosesTheHelp(t *testing.T) {
	m := press(t, send(t, newTestModel(t, 80, 24), fanOut()), "?")
	if !m.help.ShowAll {
		t.Fatal("? did not open the full help")
	}
	if m = press(t, m, "esc"); m.help.ShowAll {
		t.Fatal("esc did not close the full help")
	}
}
