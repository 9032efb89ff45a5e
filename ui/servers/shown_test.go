package servers

import (
	"slices"
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
	"github.com/octop-dev/octop/ui"
	"github.com/octop-dev/octop/ui/history"
)

// readsOf is the sessions whose history srv was asked for.
func readsOf(srv *opencodetest.Server) []string {
	var out []string
	for _, r := range srv.Requests() {
		if id, ok := strings.CutSuffix(strings.TrimPrefix(r.Path, "/session/"), "/message"); ok && r.Method == "GET" {
			out = append(out, id)
		}
	}
	return out
}

// TestShownRowsReadFirst: each server's screen reads at once the rows the
// one tree shows of it, not those its own tree pane would show, and
// keeps them whole; a server whose group is out of view reads only at the
// pace, until the cursor brings its rows into view.
func TestShownRowsReadFirst(t *testing.T) {
	clk := drive.NewClock(t, now)
	var srvs []*opencodetest.Server
	var screens []ui.Model
	for range 2 {
		srv := opencodetest.New(t, opencodetest.Options{})
		srv.AddFinished(300)
		c, err := client.New(client.Options{BaseURL: srv.URL(), Timeout: testwait.Scale(10 * time.Second)})
		if err != nil {
			t.Fatal(err)
		}
		srvs = append(srvs, srv)
		screens = append(screens, ui.New(ui.Options{Server: live.New(c), ServerURL: srv.URL(), Clock: clk.Now, Timer: clk,
			NoColor: true, History: history.Policy{Rate: 1}})) // one read a step beyond what is shown; the clock stands still
	}
	d := drive.New(t, New(screens, true), clk).Send(tea.WindowSizeMsg{Width: 160, Height: 20})
	for i := range srvs {
		d.Send(Msg{Server: i, Msg: wire.ConnState{State: wire.Connected, Attempt: 1}}, Msg{Server: i, Msg: wire.ResyncNeeded{}})
	}
	shown := d.Model().inView()
	if len(shown[0].ids) < 10 || len(shown[1].ids) != 0 {
		t.Fatalf("rows in view: %d of the first server, %d of the second (want over 10 and none)", len(shown[0].ids), len(shown[1].ids))
	}
	for _, id := range shown[0].ids {
		if !slices.Contains(readsOf(srvs[0]), id) {
			t.Fatalf("the first server's row %s, in view, was not read", id)
		}
	}
	if got := readsOf(srvs[1]); len(got) != 1 {
		t.Fatalf("the second server, out of view, read %d histories at once (%v), want the pace's one", len(got), got)
	}
	d.Press("]", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j")
	shown = d.Model().inView()
	if len(shown[1].ids) < 10 || shown[1].selected == "" {
		t.Fatalf("down the second server: %d of its rows in view, %q selected", len(shown[1].ids), shown[1].selected)
	}
	st := d.Model().Screen(1).State()
	for _, id := range shown[1].ids {
		if !slices.Contains(readsOf(srvs[1]), id) || st.Sealed(id) {
			t.Fatalf("the second server's row %s, now in view: read %v, sealed %v", id, slices.Contains(readsOf(srvs[1]), id), st.Sealed(id))
		}
	}
}
