package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/inflight"
)

// TestFirstReadWaitsForTheStream: a screen waiting for the stream reads
// the tree once, on the stream's first resync, not at start and again
// then; if no resync comes, the wait's end reads it instead, once.
func TestFirstReadWaitsForTheStream(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.AddSession(wire.Session{ID: "ses_a", Title: "a job"})
	c, err := client.New(client.Options{BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	reads := func() int { return len(srv.RequestsTo("GET /session")) }
	open := func() Model {
		srv.ClearRequests()
		return New(Options{Server: live.New(c), ServerURL: srv.URL(), Clock: fixedClock, NoColor: true, WaitForStream: true})
	}

	m := open()
	m = drain(t, m, func() tea.Msg { return wire.ConnState{State: wire.Connected, Attempt: 1} })
	m = drain(t, m, func() tea.Msg { return wire.ResyncNeeded{} })
	m = drain(t, m, func() tea.Msg { return inflight.FirstReadMsg{} })
	if n := reads(); n != 1 || m.State().Session("ses_a") == nil {
		t.Fatalf("%d list reads with the stream up, want 1 (tree has the session: %v)", n, m.State().Session("ses_a") != nil)
	}

	m = open()
	m = drain(t, m, func() tea.Msg { return inflight.FirstReadMsg{} })
	if n := reads(); n != 1 || m.State().Session("ses_a") == nil || m.version != srv.Version() {
		t.Fatalf("%d list reads with no stream, version %q; want 1 and the server's", n, m.version)
	}
}
