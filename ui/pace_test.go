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
	"github.com/octop-dev/octop/ui/history"
)

// finishedScreen is a screen h lines high over a fake holding n finished
// sessions (a root per ten, nine children each), read as p says.
func finishedScreen(t *testing.T, n, h int, p history.Policy) (*drive.Driver[Model], *opencodetest.Server) {
	t.Helper()
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.AddFinished(n)
	c, err := client.New(client.Options{BaseURL: srv.URL(), Timeout: testwait.Scale(10 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	clk := drive.NewClock(t, now)
	m := New(Options{Server: live.New(c), ServerURL: srv.URL(), Clock: clk.Now, Timer: clk, NoColor: true, History: p})
	d := drive.New(t, m, clk).Send(tea.WindowSizeMsg{Width: 160, Height: h}, wire.ConnState{State: wire.Connected, Attempt: 1}).Init()
	return d, srv
}

// historyReads is how many history reads srv answered.
func historyReads(srv *opencodetest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/message") {
			n++
		}
	}
	return n
}

// TestPacedReadsShowWhatIsLeft: beyond the rows in view, the screen reads
// at --history-rate, one step's worth each history.PaceStep; every row
// in view has its mark at once, and the header says how many are still
// to read.
func TestPacedReadsShowWhatIsLeft(t *testing.T) {
	d, srv := finishedScreen(t, 200, 20, history.Policy{Rate: 2}) // 2 a step
	m := d.Model()
	for _, id := range m.tree.Wanted() {
		if !m.State().HasHistory(id) {
			t.Fatalf("%s, in view, is not read:\n%s", id, d.Screen())
		}
	}
	read := historyReads(srv)
	d.Expect(fmt.Sprintf("(%d loading)", 200-read))
	d.Advance(history.PaceStep)
	if historyReads(srv) != read+2 {
		t.Fatalf("a step read %d more, want 2", historyReads(srv)-read)
	}
	d.Expect(fmt.Sprintf("(%d loading)", 200-read-2))
	d.Advance(100 * history.PaceStep).ExpectNot("loading")
	if historyReads(srv) != 200 {
		t.Fatalf("%d read, want every one", historyReads(srv))
	}
}

// TestTimelineKeepsItsSubtreeWhole: the timeline draws its subtree's
// calls, so opening it reads again what was sealed of it and keeps it
// whole while it is open; closed, the sweep seals it again.
func TestTimelineKeepsItsSubtreeWhole(t *testing.T) {
	d, srv := finishedScreen(t, 100, 8, history.Policy{})
	d.Advance(time.Second) // a tick: the sweep
	root := "ses_000050"
	st := d.Model().State()
	if !st.Sealed(root) || !st.Sealed("ses_000055") {
		t.Fatalf("out of view, not sealed: %v %v\n%s", st.Sealed(root), st.Sealed("ses_000055"), d.Screen())
	}
	d.Send(SelectMsg{ID: root}).Press("T")
	for _, id := range st.SubtreeIDs(root) {
		if st.Sealed(id) || !st.HasHistory(id) || messageReads(srv, id) != 2 {
			t.Fatalf("with the timeline open, %s: sealed %v, read %d times", id, st.Sealed(id), messageReads(srv, id))
		}
	}
	d.Advance(time.Second)
	if st.Sealed("ses_000055") {
		t.Fatal("the sweep sealed what the timeline shows")
	}
	d.Press("esc").Send(SelectMsg{ID: "ses_000090"}).Advance(time.Second)
	if !st.Sealed("ses_000055") {
		t.Fatalf("the timeline closed, its subtree is still whole: %v\n%s", d.Model().tree.Wanted(), d.Screen())
	}
}
