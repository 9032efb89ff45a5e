package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// TestUpdateMakesNoServerCalls is crush's guard: Update and View must never
// call the server themselves. The client points at a server that counts
// requests; driving the screen through every message family must leave
// the count at zero, and only running the returned Cmds may raise it.
func TestUpdateMakesNoServerCalls(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.AddSession(wire.Session{ID: "ses_from_rest", Title: "from REST", Time: wire.SessionTime{Created: 1, Updated: 1}})
	hits := func() int { return len(srv.Requests()) }
	c, err := client.New(client.Options{BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Server: live.New(c), ServerURL: srv.URL(), Clock: fixedClock})
	_ = m.Init() // builds the Cmds, runs none

	var fetches []tea.Cmd
	step := func(msg tea.Msg) {
		nm, cmd := m.Update(msg)
		m = nm.(Model)
		_ = m.View()
		if _, ok := msg.(wire.ResyncNeeded); ok {
			fetches = append(fetches, cmd)
		}
		if cs, ok := msg.(wire.ConnState); ok && cs.State == wire.Connected {
			fetches = append(fetches, cmd)
		}
	}
	step(tea.WindowSizeMsg{Width: 120, Height: 40})
	step(wire.ConnState{State: wire.Connecting, Attempt: 1})
	step(wire.ConnState{State: wire.Connected, Attempt: 1})
	step(wire.ResyncNeeded{})
	step(fanOut())
	for _, k := range []string{"j", "j", "l", "h", "enter", "tab", "j", "tab", "f", "/", "lint", "enter", "esc", "?", "?",
		"n", "r", "R", "m", "a", "x", "X", "o", "y", "i", "G", "g"} {
		for _, msg := range keyMsgs(k) {
			step(msg)
		}
	}
	step(tea.MouseClickMsg{X: 3, Y: 3, Button: tea.MouseLeft})
	step(tea.MouseWheelMsg{X: 3, Y: 3, Button: tea.MouseWheelDown})
	step(tickMsg{})
	step(wire.ConnState{State: wire.Disconnected, Err: errRefused, Attempt: 1})
	step(wire.ResyncNeeded{})
	if n := hits(); n != 0 {
		t.Fatalf("Update or View made %d server requests; every call must be a tea.Cmd", n)
	}

	// The Cmds are where the I/O is, and their replies land.
	for _, cmd := range fetches {
		if cmd == nil {
			t.Fatal("a resync or a connect returned no Cmd")
		}
		step(cmd())
	}
	if hits() == 0 {
		t.Fatal("running the Cmds made no request: the test proves nothing")
	}
	if m.State().Session("ses_from_rest") == nil {
		t.Fatal("the newest snapshot's reply was not applied")
	}
	if m.version != opencodetest.V118 {
		t.Fatalf("health reply not applied: version %q", m.version)
	}
}
