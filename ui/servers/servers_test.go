package servers

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/ui"
	"github.com/octop-dev/octop/wire"
)

func twoScreens() Model {
	a := ui.New(ui.Options{ServerURL: "http://127.0.0.1:4096", NoColor: true})
	b := ui.New(ui.Options{ServerURL: "http://box:4097", NoColor: true})
	m, _ := New([]ui.Model{a, b}, true).Update(tea.WindowSizeMsg{Width: 160, Height: 20})
	return m.(Model)
}

func send(m Model, msg tea.Msg) Model {
	next, _ := m.Update(msg)
	return next.(Model)
}

func created(id, title string) ui.EventsMsg {
	return ui.EventsMsg{{Event: wire.SessionCreated{Info: wire.Session{ID: id, Title: title, Time: wire.SessionTime{Created: 1, Updated: 1}}}}}
}

func TestEventsGoToTheirServer(t *testing.T) {
	m := twoScreens()
	m = send(m, Msg{Server: 0, Msg: created("ses_a", "on a")})
	m = send(m, Msg{Server: 1, Msg: created("ses_b", "on b")})
	if m.Screen(0).State().Session("ses_b") != nil || m.Screen(1).State().Session("ses_a") != nil {
		t.Fatal("a session reached the other server's screen")
	}
	if m.Screen(0).State().Session("ses_a") == nil || m.Screen(1).State().Session("ses_b") == nil {
		t.Fatal("a session did not reach its server's screen")
	}
	if v := m.View().Content; !strings.Contains(v, "on a") || strings.Contains(v, "on b") {
		t.Errorf("server 1 shown, screen:\n%s", v)
	}
	m = send(m, tea.KeyPressMsg{Code: ']', Text: "]"})
	if v := m.View().Content; m.Shown() != 1 || !strings.Contains(v, "on b") || strings.Contains(v, "on a") {
		t.Errorf("after ], shown %d, screen:\n%s", m.Shown(), v)
	}
	m = send(m, tea.KeyPressMsg{Code: '1', Text: "1"})
	if m.Shown() != 0 {
		t.Errorf("1 showed server %d", m.Shown()+1)
	}
	m = send(m, tea.KeyPressMsg{Code: '/', Text: "/"})
	m = send(m, tea.KeyPressMsg{Code: '2', Text: "2"})
	if m.Shown() != 0 {
		t.Error("a digit typed in the filter switched servers")
	}
}

// TestBarSumsAndShowsDown: one server lost, the other live; the bar
// sums the counts and says which is down, and the screen height leaves
// it room.
func TestBarSumsAndShowsDown(t *testing.T) {
	m := twoScreens()
	m = send(m, Msg{Server: 0, Msg: wire.ConnState{State: wire.Connected, Attempt: 1}})
	m = send(m, Msg{Server: 1, Msg: wire.ConnState{State: wire.Disconnected, Err: errors.New("refused"), RetryAt: time.Now().Add(time.Minute)}})
	for _, id := range []string{"ses_1", "ses_2"} {
		m = send(m, Msg{Server: 0, Msg: created(id, id)})
		m = send(m, Msg{Server: 0, Msg: ui.EventsMsg{{Event: wire.SessionStatusChanged{SessionID: id, Status: wire.SessionStatus{Type: wire.StatusBusy}}}}})
	}
	m = send(m, Msg{Server: 1, Msg: created("ses_3", "ses_3")})
	m = send(m, Msg{Server: 1, Msg: ui.EventsMsg{{Event: wire.SessionStatusChanged{SessionID: "ses_3", Status: wire.SessionStatus{Type: wire.StatusBusy}}}}})
	lines := strings.Split(m.View().Content, "\n")
	bar := ansi.Strip(lines[0])
	for _, want := range []string{"[1 127.0.0.1:4096 ● 2 running]", "2 box:4097 ✗ down 1 running", "all: 3 running  0 waiting  0 failed", "1 of 2 down", "[ ] switch"} {
		if !strings.Contains(bar, want) {
			t.Errorf("bar lacks %q:\n%s", want, bar)
		}
	}
	if len(lines) != 20 || ansi.StringWidth(bar) != 160 {
		t.Errorf("%d lines, bar %d cells; want 20 and 160", len(lines), ansi.StringWidth(bar))
	}
}

type replyMsg struct{ n int }

func TestTagRoutesReplies(t *testing.T) {
	cmd := tag(1, tea.Batch(func() tea.Msg { return replyMsg{7} }, func() tea.Msg { return replyMsg{8} }))
	batch, ok := cmd().(tea.BatchMsg)
	if !ok || len(batch) != 2 {
		t.Fatalf("a batch came back as %T", cmd())
	}
	for i, c := range batch {
		if got, ok := c().(Msg); !ok || got.Server != 1 || got.Msg != (replyMsg{7 + i}) {
			t.Errorf("batch %d: %#v", i, c())
		}
	}
	if _, ok := tag(0, tea.Quit)().(tea.QuitMsg); !ok {
		t.Error("quit was wrapped; the program would not quit")
	}
}

// TestAdded: a server found later joins as the next number, sized, and
// its messages reach it.
func TestAdded(t *testing.T) {
	m := twoScreens()
	m = send(m, Added{Screen: ui.New(ui.Options{ServerURL: "http://found:4096", NoColor: true})})
	m = send(m, Msg{Server: 2, Msg: created("ses_c", "on found")})
	m = send(m, tea.KeyPressMsg{Code: '3', Text: "3"})
	lines := strings.Split(m.View().Content, "\n")
	if m.Shown() != 2 || !strings.Contains(lines[0], "[3 found:4096") || !strings.Contains(m.View().Content, "on found") || len(lines) != 20 {
		t.Errorf("shown %d, %d lines:\n%s", m.Shown(), len(lines), m.View().Content)
	}
}
