package ui

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/drive"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/watchdog"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/format"
)

// TestAsksUnreadStay: a session waiting on a permission and a question
// keeps its mark, its count and its inbox items through a reconnect whose
// reads of the pending asks fail, and the header says they could not be
// read; nothing is announced of it, where the screen once took the failed
// read for "none" (answered), then announced it waiting again at the
// next reconnect.
func TestAsksUnreadStay(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	const asks = "ses_asks"
	at := now.UnixMilli() - 60_000
	srv.AddSession(wire.Session{ID: asks, Title: "clean the build", Time: wire.SessionTime{Created: at, Updated: at}})
	srv.SetStatus(asks, wire.SessionStatus{Type: wire.StatusBusy})
	srv.AddPermission(wire.PermissionRequest{ID: "per_1", SessionID: asks, Permission: "bash", Patterns: []string{"rm -rf build"}})
	srv.AddQuestion(wire.QuestionRequest{ID: "que_1", SessionID: asks, Questions: []wire.QuestionInfo{{Question: "Which one?"}}})
	c, err := client.New(client.Options{BaseURL: srv.URL(), Timeout: testwait.Scale(10 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var hooked []string
	cfg := watchdog.Config{}
	clk := drive.NewClock(t, now)
	m := New(Options{Server: live.New(c), ServerURL: srv.URL(), Clock: fixedClock, Timer: clk, NoColor: true,
		Watchdog: &cfg, OnEvent: func(e watchdog.Event) {
			mu.Lock()
			defer mu.Unlock()
			hooked = append(hooked, e.Name+" "+e.ID)
		}})
	d := drive.New(t, m, clk).Send(tea.WindowSizeMsg{Width: 120, Height: 20},
		wire.ConnState{State: wire.Connected, Attempt: 1}, wire.ResyncNeeded{})
	waits := func(when string) {
		t.Helper()
		sc := d.Screen()
		if row := rowOf(sc, "clean the build"); !strings.Contains(row, format.MarkWaiting+" clean the build") {
			t.Errorf("%s: the row does not wait: %q\n%s", when, row, sc)
		}
		if !strings.Contains(sc, "1 waiting") {
			t.Errorf("%s: the header does not count it waiting:\n%s", when, sc)
		}
		if st := d.Model().State(); len(st.Permissions(asks)) != 1 || len(st.Questions(asks)) != 1 {
			t.Errorf("%s: %d permissions, %d questions pending", when, len(st.Permissions(asks)), len(st.Questions(asks)))
		}
	}
	waits("at first")
	reconnect := func() {
		d.Send(wire.ConnState{State: wire.Disconnected}, wire.ConnState{State: wire.Connected, Attempt: 1}, wire.ResyncNeeded{})
	}

	srv.Fail("GET /permission", http.StatusServiceUnavailable, "busy")
	srv.Fail("GET /question", http.StatusServiceUnavailable, "busy")
	reconnect()
	waits("after a read of the asks failed")
	d.Expect("could not read the pending asks: GET /permission")

	srv.Handle("GET /permission", nil)
	srv.Handle("GET /question", nil)
	reconnect()
	waits("read again")
	d.ExpectNot("could not read the pending asks")
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(hooked, nil) {
		t.Errorf("announced %q of a session that waited all along", hooked)
	}
}
