package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/drive"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/history"
)

// sealServer is a fake holding n finished sessions, one a day back from
// now, each a run with one bash call costing more the older it is.
func sealServer(t *testing.T, n int) *opencodetest.Server {
	t.Helper()
	srv := opencodetest.New(t, opencodetest.Options{})
	const day = int64(24 * time.Hour / time.Millisecond)
	for i := range n {
		id := fmt.Sprintf("ses_%03d", i)
		at := now.UnixMilli() - int64(i)*day - 1000
		srv.AddSession(wire.Session{ID: id, Title: fmt.Sprintf("job %02d", i), Time: wire.SessionTime{Created: at, Updated: at}})
		run := oldRun(id, "complete", at)
		run[1].Info.Cost = float64(i+1) / 1000
		srv.SetMessages(id, run)
	}
	return srv
}

// sortedScreen is the screen over srv, h lines high, read as p says,
// then sorted by cost with every history that sort reads folded in.
func sortedScreen(t *testing.T, srv *opencodetest.Server, p history.Policy, h int) *drive.Driver[Model] {
	t.Helper()
	c, err := client.New(client.Options{BaseURL: srv.URL(), Timeout: testwait.Scale(10 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	clk := drive.NewClock(t, now)
	m := New(Options{Server: live.New(c), ServerURL: srv.URL(), Clock: fixedClock, Timer: clk, NoColor: true, History: p})
	d := drive.New(t, m, clk).Send(tea.WindowSizeMsg{Width: 160, Height: h},
		wire.ConnState{State: wire.Connected, Attempt: 1}, wire.ResyncNeeded{})
	m = d.Model()
	m.tree.SetSort(model.SortCost)
	return drive.New(t, m, clk).Send(tea.WindowSizeMsg{Width: 160, Height: h})
}

// messageReads counts the reads of id's history the fake served.
func messageReads(srv *opencodetest.Server, id string) int {
	n := 0
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/session/"+id+"/message") {
			n++
		}
	}
	return n
}

// sealedInView are the rows in view whose sessions are sealed.
func sealedInView(m Model) []string {
	var out []string
	for _, id := range m.tree.Wanted() {
		if m.State().Sealed(id) {
			out = append(out, id)
		}
	}
	return out
}

// TestSealedRowsDrawAsWhole: a screen seals every history it read once
// its row is out of view (a sort by cost on a lazy screen reads every
// one); those rows, scrolled into view, show exactly what rows kept
// whole show; the selected one is read again, and the detail shows its
// calls, as a screen that kept it whole does. The screen kept whole is
// one tall enough to show every row, made short: nothing left its view
// while it read, and no tick has swept it since.
func TestSealedRowsDrawAsWhole(t *testing.T) {
	srv := sealServer(t, 60)
	lazy := sortedScreen(t, srv, history.Policy{LazyAfter: 50, Window: 7 * 24 * time.Hour}, 20)
	whole := sortedScreen(t, srv, history.Policy{}, 80).Send(tea.WindowSizeMsg{Width: 160, Height: 20})
	if u := lazy.Model().State().Tally().Unread; u != 0 || strings.Contains(lazy.Screen(), "sorting") {
		t.Fatalf("the sort left %d unread:\n%s", u, lazy.Screen())
	}
	lazy.Press("G").Advance(time.Second).Press("g") // the rows first in view leave it and are swept
	whole.Press("g")
	if len(sealedInView(lazy.Model())) < 10 || len(sealedInView(whole.Model())) != 0 {
		t.Fatalf("sealed rows in view: %v, and on the whole screen %v", sealedInView(lazy.Model()), sealedInView(whole.Model()))
	}
	if lazy.Screen() != whole.Screen() {
		t.Fatalf("sealed rows drawn otherwise:\n%s\nkept whole:\n%s", lazy.Screen(), whole.Screen())
	}

	lazy.Press("j")
	whole.Press("j")
	sel := lazy.Model().tree.Selected()
	if st := lazy.Model().State(); st.Sealed(sel) || len(st.Session(sel).Tools) != 1 || messageReads(srv, sel) != 3 {
		t.Fatalf("selected, %s: sealed %v, read %d times (twice by the screens, once again)", sel, st.Sealed(sel), messageReads(srv, sel))
	}
	lazy.Expect("tool calls (1)", "go test")
	if lazy.Screen() != whole.Screen() {
		t.Fatalf("the selected sealed session's detail:\n%s\nkept whole:\n%s", lazy.Screen(), whole.Screen())
	}
}

// TestEventOnSealedSession: a sealed session that runs again is not
// shown from half a history: the screen takes it as unread and reads it
// again, and its calls are the old and the new, each counted once.
func TestEventOnSealedSession(t *testing.T) {
	srv := sealServer(t, 60)
	d := sortedScreen(t, srv, history.Policy{LazyAfter: 50, Window: 7 * 24 * time.Hour}, 20)
	const id = "ses_030"
	st := d.Model().State()
	if !st.Sealed(id) || d.Model().tree.Selected() == id {
		t.Fatalf("%s: sealed %v, selected %q", id, st.Sealed(id), d.Model().tree.Selected())
	}
	// The server's history now holds a second run, whose events come.
	run := oldRun(id, "complete", now.UnixMilli()-5000)
	second := oldRun(id, "complete", now.UnixMilli()-1000)
	second[0].Info.ID, second[1].Info.ID = "msg_3", "msg_4"
	second[1].Parts[0].ID, second[1].Parts[0].MessageID = "prt_2", "msg_4"
	srv.SetMessages(id, append(run, second...))
	d.Send(events(busy(id), wire.MessageUpdated{Info: second[0].Info},
		wire.PartUpdated{Part: second[1].Parts[0]}))
	st = d.Model().State()
	if c := st.Counts(id); !st.HasHistory(id) || len(st.Session(id).Tools) != 2 || c.ToolsDone != 2 {
		t.Fatalf("after the event: history %v, calls %d, counts %+v", st.HasHistory(id), len(st.Session(id).Tools), c)
	}
	if messageReads(srv, id) != 2 {
		t.Fatalf("read %d times, want once more after the event", messageReads(srv, id))
	}
}
