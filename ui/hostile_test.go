package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/termtest"
	"github.com/octop-dev/octop/internal/wire"
)

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
			checkPanes(hs)
			checkRooms(hs)
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

// checkPanes checks the tree and the detail of every session, focused or
// not, the full help, a failed hook's notice and the filter.
func checkPanes(hs *showcaseScreen) {
	hs.t.Helper()
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
}

// checkRooms opens every room on the sessions that fill it, presses the
// keys that show more of it, and checks each view.
func checkRooms(hs *showcaseScreen) {
	hs.t.Helper()
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
		{hs.sc.Root, "$", []string{"b", "b", "b"}},
	}
	for _, r := range rooms {
		where := r.keys + " on " + r.session
		if r.session != "" {
			hs.selectSession(r.session)
		}
		hs.keys(r.keys)
		if hs.m.dialog == nil {
			hs.t.Errorf("%s opened no room:\n%s", where, screen(hs.m))
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
