package ui

import (
	"fmt"
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
	"github.com/octop-dev/octop/ui/history"
	"github.com/octop-dev/octop/ui/inflight"
)

// TestLazyScreenReadsWhatItShows: past the policy's threshold the screen
// reads the histories of the last days and of the rows it shows, and no
// others; a row scrolled into view is read then; until read, a row says
// "…" and the header counts it unread; a sort by cost reads the rest,
// saying so while it does.
func TestLazyScreenReadsWhatItShows(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	const n, days = 60, int64(24 * time.Hour / time.Millisecond)
	for i := range n {
		id := fmt.Sprintf("ses_%03d", i)
		at := now.UnixMilli() - int64(i)*days - 1000 // one a day, back from now
		srv.AddSession(wire.Session{ID: id, Title: fmt.Sprintf("job %02d", i), Time: wire.SessionTime{Created: at, Updated: at}})
		srv.SetMessages(id, oldRun(id, "complete", at))
	}
	c, err := client.New(client.Options{BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	reads := func() map[string]bool {
		out := map[string]bool{}
		for _, r := range srv.Requests() {
			if strings.HasSuffix(r.Path, "/message") {
				out[strings.Split(strings.TrimPrefix(r.Path, "/session/"), "/")[0]] = true
			}
		}
		return out
	}
	m := New(Options{Server: live.New(c), ServerURL: srv.URL(), Clock: fixedClock, NoColor: true,
		History: history.Policy{LazyAfter: 50, Window: 7 * 24 * time.Hour}})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 20})
	m = drain(t, m, inflight.Snapshot(m.opts.Server, m.in.Tag()))
	read := reads()
	if len(read) >= n/2 || !read["ses_000"] || !read["ses_007"] || read["ses_059"] {
		t.Fatalf("read %d histories (%v): want the last 7 days' and the rows in view, not the bottom", len(read), read)
	}
	for _, r := range m.tree.Wanted() {
		if !m.State().HasHistory(r) {
			t.Errorf("%s is in view but unread", r)
		}
	}
	scr := screen(m)
	if !strings.Contains(scr, fmt.Sprintf("all 60 (%d unread)", n-len(read))) {
		t.Errorf("the header does not count the unread:\n%s", scr)
	}

	m = drain(t, m, func() tea.Msg { return keyMsgs("G")[0] }) // to the bottom
	if !reads()["ses_059"] || !strings.Contains(screen(m), format.MarkDone+" job 59") {
		t.Fatalf("the bottom row, scrolled into view, was not read:\n%s", screen(m))
	}

	m.tree.SetSort(model.SortCost)
	before := m.State().Tally()
	if want := fmt.Sprintf("sorting %d of 60 read", before.Sessions-before.Unread); !strings.Contains(screen(m), want) {
		t.Errorf("sorting by cost over unread rows does not say %q:\n%s", want, screen(m))
	}
	m = drain(t, m, func() tea.Msg { return tea.WindowSizeMsg{Width: 120, Height: 20} })
	if len(reads()) != n || strings.Contains(screen(m), "sorting") || m.State().Tally().Unread != 0 {
		t.Errorf("sorted by cost: %d of %d read, unread %d\n%s", len(reads()), n, m.State().Tally().Unread, screen(m))
	}
}
