package ui

import (
	"encoding/json"
	"fmt"
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
)

// loopRun is the history of a root that ran `echo same again` n times
// from its prompt at `at`, then completed.
func loopRun(id string, at int64, n int) []wire.MessageWithParts {
	run := oldRun(id, "complete", at)
	in := json.RawMessage(`{"command":"echo same again"}`)
	run[1].Parts = nil
	for i := range n {
		run[1].Parts = append(run[1].Parts, wire.Part{ID: fmt.Sprintf("prt_%d", i), SessionID: id, MessageID: "msg_2",
			Type: wire.PartTool, Tool: "bash", CallID: fmt.Sprint(i), State: &wire.ToolState{Status: wire.ToolCompleted,
				Title: "echo same again", Input: in, Time: wire.ToolTime{Start: at + 200, End: at + 300}}})
	}
	return run
}

// baselineScreen is a screen with a watchdog (--loop 3) and a hook over a
// fake holding one root that looped and completed before octop started,
// and what the hook ran for.
type baselineScreen struct {
	srv    *opencodetest.Server
	clk    *drive.Clock
	m      Model
	mu     sync.Mutex
	hooked []string
}

const oldLooper = "ses_loop"

func newBaselineScreen(t *testing.T) *baselineScreen {
	t.Helper()
	b := &baselineScreen{srv: opencodetest.New(t, opencodetest.Options{}), clk: drive.NewClock(t, now)}
	at := now.UnixMilli() - 60_000
	b.srv.AddSession(wire.Session{ID: oldLooper, Title: "old looper", Time: wire.SessionTime{Created: at, Updated: at + 20_000}})
	b.srv.SetMessages(oldLooper, loopRun(oldLooper, at, 4))
	c, err := client.New(client.Options{BaseURL: b.srv.URL(), Timeout: testwait.Scale(10 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	cfg := watchdog.Config{Loop: 3}
	b.m = New(Options{Server: live.New(c), ServerURL: b.srv.URL(), Clock: fixedClock, Timer: b.clk, NoColor: true,
		Watchdog: &cfg, OnEvent: func(e watchdog.Event) {
			b.mu.Lock()
			defer b.mu.Unlock()
			b.hooked = append(b.hooked, e.Name+" "+e.ID)
		}})
	b.m = drive.New(t, b.m, b.clk).Send(tea.WindowSizeMsg{Width: 160, Height: 20}).Model()
	return b
}

func (b *baselineScreen) hooks() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.hooked)
}

// lateSummary is what the server sends of a root after its run ended,
// as it adds the summary of the run's prompt: the session touched, and
// that old prompt again.
func lateSummary(id string, at int64) EventsMsg {
	return events(
		wire.SessionUpdated{Info: wire.Session{ID: id, Title: "old looper", Time: wire.SessionTime{Created: at, Updated: at + 21_000}}},
		wire.MessageUpdated{Info: wire.Message{ID: "msg_1", SessionID: id, Role: "user", Agent: "general",
			Time: wire.MessageTime{Created: at}}})
}

// TestLateSummaryOfAnOldRunIsNoNews: a root that ended before octop
// started is the baseline, whenever the server's late word of its last
// prompt (sent again with its summary, after the run) comes on a slow
// machine: while the first read is out, or after it and before the
// root's history is read (here: its first read failed). Its loop is
// marked on its row (the header counts only runaways running now),
// never announced, neither then nor after a restart;
// a run after that is announced, once.
func TestLateSummaryOfAnOldRunIsNoNews(t *testing.T) {
	at := now.UnixMilli() - 60_000
	for _, when := range []string{"during the first read", "before its history"} {
		t.Run(when, func(t *testing.T) {
			b := newBaselineScreen(t)
			d := drive.New(t, b.m, b.clk).Send(wire.ConnState{State: wire.Connected, Attempt: 1})
			if when == "during the first read" {
				nm, read := d.Model().Update(wire.ResyncNeeded{})
				d = drive.New(t, nm.(Model), b.clk).Send(lateSummary(oldLooper, at))
				d.Send(d.Run(read)...)
			} else {
				b.srv.Fail("GET /session/"+oldLooper+"/message", http.StatusServiceUnavailable, "busy")
				d.Send(wire.ResyncNeeded{}).Send(lateSummary(oldLooper, at))
				b.srv.Handle("GET /session/"+oldLooper+"/message", nil)
			}
			d.Advance(2 * time.Second) // a failed read is tried again
			// The header counts only the runaways running now: this one's
			// mark stays on its row alone.
			d.ExpectNot("⚠ 1 runaway")
			if row := rowOf(d.Screen(), "old looper"); !strings.Contains(row, "⚠ loop") || !strings.Contains(row, "✓") {
				t.Fatalf("the old looper's row: %q\n%s", row, d.Screen())
			}
			// The server restarts; the screen reads it all again.
			d.Send(wire.ConnState{State: wire.Disconnected}, wire.ConnState{State: wire.Connected, Attempt: 1},
				wire.ResyncNeeded{}).Advance(2 * time.Second)
			if got := b.hooks(); len(got) != 0 {
				t.Fatalf("the hook ran for old news: %q", got)
			}
			d.Send(events(created("ses_new", "", "new run", 100), userMsg("ses_new", 100), busy("ses_new"),
				finished("ses_new", 10, 0, 101), idle("ses_new")))
			if got := b.hooks(); !slices.Equal(got, []string{"session.done ses_new"}) {
				t.Fatalf("the hook ran for %q, want the new run's end once", got)
			}
		})
	}
}
