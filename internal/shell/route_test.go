package shell

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/task"
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

func (o abortOps) Abort(_ context.Context, id string) error {
	o.log.mu.Lock()
	defer o.log.mu.Unlock()
	o.log.got = append(o.log.got, o.name+":"+id)
	return nil
}

func (o abortOps) Agents(context.Context) ([]wire.Agent, error) {
	return []wire.Agent{{Name: "general", Mode: "subagent", Description: "General-purpose agent"}}, nil
}

// Launch records "server:launch:parent:description".
func (o abortOps) Launch(_ context.Context, r task.LaunchRequest) (wire.Session, error) {
	o.log.mu.Lock()
	defer o.log.mu.Unlock()
	o.log.got = append(o.log.got, o.name+":launch:"+r.Parent+":"+r.Description)
	return wire.Session{ID: "ses_new"}, nil
}

// drive updates m with msg and runs what comes back as the program would,
// giving up on each command after a moment (timers, the cursor's blink).
func drive(m Model, msg tea.Msg) Model {
	queue := []tea.Msg{msg}
	for steps := 0; len(queue) > 0 && steps < 50; steps++ {
		next, cmd := m.Update(queue[0])
		m, queue = next.(Model), queue[1:]
		for _, c := range flatten(cmd) {
			done := make(chan tea.Msg, 1)
			go func() { done <- c() }()
			select {
			case r := <-done:
				if r != nil {
					queue = append(queue, r)
				}
			case <-time.After(300 * time.Millisecond):
			}
		}
	}
	return m
}

func flatten(cmd tea.Cmd) []tea.Cmd {
	if cmd == nil {
		return nil
	}
	return []tea.Cmd{func() tea.Msg {
		msg := cmd()
		if b, ok := msg.(tea.BatchMsg); ok {
			var out tea.BatchMsg
			for _, c := range b {
				out = append(out, flatten(c)...)
			}
			return out
		}
		return msg
	}}
}

// TestAbortGoesToItsServer: two servers each with a running session of
// the SAME id; x on the second server's group line aborts nothing; x
// then y on its session aborts it there, and the first server is sent
// nothing.
func TestAbortGoesToItsServer(t *testing.T) {
	log := &abortLog{}
	a := ui.New(ui.Options{Server: abortOps{name: "a", log: log}, ServerURL: "http://a:1", NoColor: true})
	b := ui.New(ui.Options{Server: abortOps{name: "b", log: log}, ServerURL: "http://b:2", NoColor: true})
	m := New([]ui.Model{a, b}, true)
	m = drive(m, tea.WindowSizeMsg{Width: 120, Height: 30})
	for i := range 2 {
		m = drive(m, Msg{Server: i, Msg: created("ses_same", "work")})
		m = drive(m, Msg{Server: i, Msg: ui.EventsMsg{{Event: wire.SessionStatusChanged{SessionID: "ses_same", Status: wire.SessionStatus{Type: wire.StatusBusy}}}}})
	}
	m = drive(m, tea.KeyPressMsg{Code: ']', Text: "]"})
	m = drive(m, tea.KeyPressMsg{Code: 'x', Text: "x"}) // on b's group line: says to select a session
	m = drive(m, tea.KeyPressMsg{Code: 'j', Text: "j"})
	m = drive(m, tea.KeyPressMsg{Code: 'x', Text: "x"})
	_ = drive(m, tea.KeyPressMsg{Code: 'y', Text: "y"})
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
	a := ui.New(ui.Options{Server: abortOps{name: "a", log: log}, ServerURL: "http://a:1", NoColor: true})
	b := ui.New(ui.Options{Server: abortOps{name: "b", log: log}, ServerURL: "http://b:2", NoColor: true})
	m := drive(New([]ui.Model{a, b}, true), tea.WindowSizeMsg{Width: 120, Height: 40})
	m = drive(m, tea.KeyPressMsg{Code: '2', Text: "2"})
	m = drive(m, tea.KeyPressMsg{Code: 'N', Text: "N"})
	if v := m.View().Content; !strings.Contains(v, "Launch a task as a new root session") || !strings.HasPrefix(ansi.Strip(v), "servers") {
		t.Fatalf("N on b's group line:\n%s", v)
	}
	m = drive(m, tea.KeyPressMsg{Code: tea.KeyEnter}) // the agent → the description
	for _, r := range "on b" {
		m = drive(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	m = drive(m, tea.KeyPressMsg{Code: tea.KeyEnter}) // → the prompt
	m = drive(m, tea.KeyPressMsg{Code: 'g', Text: "g"})
	_ = drive(m, tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
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
	m := drive(New([]ui.Model{ui.New(ui.Options{ServerURL: "http://a:1", NoColor: true}),
		ui.New(ui.Options{ServerURL: "http://b:2", NoColor: true})}, true), tea.WindowSizeMsg{Width: 120, Height: 30})
	m = drive(m, Msg{Server: 1, Msg: created("ses_b", "work on b")})
	m = drive(m, tea.KeyPressMsg{Code: '2', Text: "2"})
	m = drive(m, tea.KeyPressMsg{Code: tea.KeyTab})
	if _, _, _, treeKeys := m.Screen(1).Panes(); !treeKeys {
		t.Fatal("tab on the group line moved the keys to a detail pane that is not shown")
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "select a session of b:2 first") {
		t.Errorf("tab on the group line said nothing:\n%s", v)
	}
	m = drive(m, tea.KeyPressMsg{Code: 'j', Text: "j"})
	m = drive(m, tea.KeyPressMsg{Code: tea.KeyTab})
	if _, _, _, treeKeys := m.Screen(1).Panes(); treeKeys {
		t.Error("tab on a session left the keys on the tree")
	}
}
