package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/inflight"
)

// While the server is out of reach the screen says so: the header counts
// the time since the drop and down to the next try, the spinner and the
// elapsed time stop, the rows are faint. Once back, every state is read
// again: a run that died with the server is interrupted.
func TestStaleScreenUntilResync(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	at := now.UnixMilli() - 20_000
	srv.AddSession(wire.Session{ID: "ses_run", Title: "long job", Time: wire.SessionTime{Created: at, Updated: at}})
	msgs := oldRun("ses_run", "interrupted", at)
	srv.SetMessages("ses_run", msgs)
	srv.SetStatus("ses_run", wire.SessionStatus{Type: wire.StatusBusy})
	srv.AddSession(wire.Session{ID: "ses_old", Title: "old job", Time: wire.SessionTime{Created: at - 60_000, Updated: at - 50_000}})
	srv.SetMessages("ses_old", oldRun("ses_old", "complete", at-60_000))
	c, err := client.New(client.Options{BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	clock := now
	m := New(Options{Server: live.New(c), ServerURL: srv.URL(), Clock: func() time.Time { return clock }})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 30})
	m = send(t, m, wire.ConnState{State: wire.Connected, Attempt: 1})
	m = drain(t, m, inflight.Snapshot(m.opts.Server, m.in.Tag()))
	live := screen(m)
	if row := screenRow(t, live, "long job"); !strings.Contains(row, "20s") || strings.Contains(row, format.MarkStale) {
		t.Fatalf("a running session before the drop: %q", row)
	}
	if raw := strings.Split(m.tree.View(), "\n")[1]; strings.HasPrefix(raw, "\x1b[2;") {
		t.Fatalf("a current row is drawn faint: %q", raw)
	}

	m = send(t, m, wire.ConnState{State: wire.Disconnected, Err: errRefused, RetryAt: clock.Add(2500 * time.Millisecond), Attempt: 1})
	clock = clock.Add(7 * time.Second)
	m = send(t, m, tickMsg{})
	stale := screen(m)
	if !strings.Contains(stale, "✗ disconnected 7s, retrying in 0s") {
		t.Errorf("the header does not say the screen is stale:\n%s", stale)
	}
	row := screenRow(t, stale, "long job")
	if !strings.Contains(row, format.MarkStale+" long job") || !strings.Contains(row, "20s") {
		t.Errorf("while disconnected the row must stop its spinner and its clock (⋯, 20s): %q", row)
	}
	// The second row (the first is selected, and stays so).
	if raw := strings.Split(m.tree.View(), "\n")[1]; !strings.HasPrefix(raw, "\x1b[2;") || !strings.Contains(raw, "old job") {
		t.Errorf("stale rows are not drawn faint: %q", raw)
	}

	// The server comes back without the run: it died with it.
	srv.SetStatus("ses_run", wire.SessionStatus{Type: wire.StatusIdle})
	srv.AddSession(wire.Session{ID: "ses_run", Title: "long job", Time: wire.SessionTime{Created: at, Updated: at + 30_000}})
	m = send(t, m, wire.ConnState{State: wire.Connected, Attempt: 2})
	if sc := screen(m); !strings.Contains(sc, "disconnected 7s, re-reading the sessions") {
		t.Errorf("connected but not re-read yet: the screen is still stale:\n%s", sc)
	}
	nm, cmd := m.Update(wire.ResyncNeeded{})
	m = drain(t, nm.(Model), cmd)
	// It may yet say how it ended: stopping for the grace, then interrupted.
	if st := m.State().StateOf("ses_run"); st.Reason != model.ReasonStopping {
		t.Errorf("just re-read: reason %q, want stopping", st.Reason)
	}
	clock = clock.Add(model.Grace * time.Millisecond)
	m = send(t, m, tickMsg{})
	after := screen(m)
	if row := screenRow(t, after, "long job"); !strings.Contains(row, format.MarkInterrupted+" long job") {
		t.Errorf("after the resync a run that died with the server is interrupted: %q", row)
	}
	if st := m.State().StateOf("ses_run"); st.Reason != "interrupted" {
		t.Errorf("reason %q, want interrupted", st.Reason)
	}
	if !strings.Contains(after, "● connected") || strings.Contains(after, "disconnected") {
		t.Errorf("after the resync the header still says stale:\n%s", after)
	}
}
