package servers

import (
	"context"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/testkit/drive"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui"
)

// abortLog is every abort the fake servers got, as "server:id".
type abortLog struct {
	mu  sync.Mutex
	got []string
}

// abortOps is one fake server: it records aborts; any other call would
// panic (the embedded nil task.Server), which the test must not make.
type abortOps struct {
	task.Server
	name string
	log  *abortLog
}

func (o abortOps) Do(ctx context.Context, r task.Request) task.Reply {
	switch r := r.(type) {
	case task.AbortRequest:
		if r.Tree {
			break
		}
		o.record(r.IDs[0])
		return task.AbortReply{IDs: r.IDs[:1]}
	case task.AgentsRequest:
		return task.AgentsReply{Agents: []wire.Agent{{Name: "general", Mode: "subagent", Description: "General-purpose agent"}}}
	case task.LaunchRequest:
		// "server:launch:parent:description"
		o.record("launch:" + r.Parent + ":" + r.Description)
		return task.LaunchReply{Session: wire.Session{ID: "ses_new"}, Req: r}
	}
	return o.Server.Do(ctx, r)
}

// record logs "server:what".
func (o abortOps) record(what string) {
	o.log.mu.Lock()
	defer o.log.mu.Unlock()
	o.log.got = append(o.log.got, o.name+":"+what)
}

// screens are two servers' screens, a and b, on the fake servers ops
// (nil: none) and the test clock clk.
func screens(clk *drive.Clock, ops ...task.Server) []ui.Model {
	out := make([]ui.Model, 2)
	for i, url := range []string{"http://a:1", "http://b:2"} {
		o := ui.Options{ServerURL: url, NoColor: true, Clock: clk.Now, Timer: clk}
		if ops != nil {
			o.Server = ops[i]
		}
		out[i] = ui.New(o)
	}
	return out
}

// driven is the servers' screen over ss, at w×h, driven as the program
// would run it (internal/testkit/drive): every command to completion, timers on
// clk.
func driven(t *testing.T, clk *drive.Clock, ss []ui.Model, w, h int) *drive.Driver[Model] {
	return drive.New(t, New(ss, true), clk).Send(tea.WindowSizeMsg{Width: w, Height: h})
}

// TestAbortGoesToItsServer: two servers each with a running session of
// the SAME id; x on the second server's group line aborts nothing; x
// then y on its session aborts it there, and the first server is sent
// nothing.
func TestAbortGoesToItsServer(t *testing.T) {
	log := &abortLog{}
	clk := drive.NewClock(t, now)
	d := driven(t, clk, screens(clk, abortOps{name: "a", log: log}, abortOps{name: "b", log: log}), 120, 30)
	for i := range 2 {
		d.Send(Msg{Server: i, Msg: created("ses_same", "work")}, Msg{Server: i, Msg: busy("ses_same")})
	}
	d.Press("]", "x").Expect("select a session") // x on b's group line
	d.Press("j", "x").Expect("Abort work").Press("y")
	log.mu.Lock()
	defer log.mu.Unlock()
	if len(log.got) != 1 || log.got[0] != "b:ses_same" {
		t.Fatalf("aborts sent %v, want only b:ses_same", log.got)
	}
}

// TestLaunchRootOnAGroupLine: N on the second server's group line opens
// its launch form, drawn whole under the bar, and the launch goes to
// that server only.
func TestLaunchRootOnAGroupLine(t *testing.T) {
	log := &abortLog{}
	clk := drive.NewClock(t, now)
	d := driven(t, clk, screens(clk, abortOps{name: "a", log: log}, abortOps{name: "b", log: log}), 120, 40)
	d.Press("2", "N").Expect("Launch a task as a new root session")
	if !strings.HasPrefix(d.Screen(), "servers") {
		t.Fatalf("N on b's group line is not drawn under the bar:\n%s", d.Screen())
	}
	d.Press("enter")              // the agent → the description
	d.Type("on b").Press("enter") // → the prompt
	d.Type("g").Press("ctrl+s")
	log.mu.Lock()
	defer log.mu.Unlock()
	if len(log.got) != 1 || log.got[0] != "b:launch::on b" {
		t.Fatalf("calls %v, want only b's launch of a root", log.got)
	}
}

// TestTabOnAGroupLine: tab on a server's group line keeps the keys on the
// tree (its detail is the server's, with nothing to scroll) and says to
// select a session; on a session it moves them to the detail pane.
func TestTabOnAGroupLine(t *testing.T) {
	clk := drive.NewClock(t, now)
	d := driven(t, clk, screens(clk), 120, 30)
	d.Send(Msg{Server: 1, Msg: created("ses_b", "work on b")}).Press("2", "tab")
	if _, _, _, treeKeys := d.Model().Screen(1).Panes(); !treeKeys {
		t.Fatal("tab on the group line moved the keys to a detail pane that is not shown")
	}
	d.Expect("select a session of b:2 first").Press("j", "tab")
	if _, _, _, treeKeys := d.Model().Screen(1).Panes(); treeKeys {
		t.Error("tab on a session left the keys on the tree")
	}
}
