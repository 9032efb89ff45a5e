package servers

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui"
	"github.com/octop-dev/octop/ui/inflight"
)

// now is the screens' clock in these tests; sessions start a minute
// before it.
var now = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

func screen(url string) ui.Model {
	return ui.New(ui.Options{ServerURL: url, NoColor: true, Clock: func() time.Time { return now }})
}

func twoScreens() Model {
	m, _ := New([]ui.Model{screen("http://127.0.0.1:4096"), screen("http://box:4097")}, true).Update(tea.WindowSizeMsg{Width: 160, Height: 20})
	return m.(Model)
}

func send(m Model, msgs ...tea.Msg) Model {
	for _, msg := range msgs {
		next, _ := m.Update(msg)
		m = next.(Model)
	}
	return m
}

func press(m Model, keys ...string) Model {
	for _, k := range keys {
		r := []rune(k)[0]
		switch k {
		case "left":
			r = tea.KeyLeft
		case "right":
			r = tea.KeyRight
		case "enter":
			r = tea.KeyEnter
		default:
			m = send(m, tea.KeyPressMsg{Code: r, Text: k})
			continue
		}
		m = send(m, tea.KeyPressMsg{Code: r})
	}
	return m
}

func created(id, title string) ui.EventsMsg {
	return child(id, "", title)
}

func child(id, parent, title string) ui.EventsMsg {
	ms := now.Add(-time.Minute).UnixMilli()
	return ui.EventsMsg{{Event: wire.SessionCreated{Info: wire.Session{ID: id, ParentID: parent, Title: title, Time: wire.SessionTime{Created: ms, Updated: ms}}}}}
}

func busy(id string) ui.EventsMsg {
	return ui.EventsMsg{{Event: wire.SessionStatusChanged{SessionID: id, Status: wire.SessionStatus{Type: wire.StatusBusy}}}}
}

// scene is two servers: a (1.18.33, live) with a root and its child,
// both running, and a second root; b (1.1.65) with one running root,
// then lost.
func scene() Model {
	m := twoScreens()
	m = send(m,
		Msg{Server: 0, Msg: wire.ConnState{State: wire.Connected, Attempt: 1}},
		Msg{Server: 0, Msg: inflight.HealthReply{Health: wire.Health{Healthy: true, Version: "1.18.33"}}},
		Msg{Server: 0, Msg: created("ses_a1", "fix the parser")},
		Msg{Server: 0, Msg: child("ses_a2", "ses_a1", "write the tests")},
		Msg{Server: 0, Msg: busy("ses_a1")}, Msg{Server: 0, Msg: busy("ses_a2")},
		Msg{Server: 0, Msg: created("ses_a3", "read the docs")},
		Msg{Server: 1, Msg: wire.ConnState{State: wire.Connected, Attempt: 1}},
		Msg{Server: 1, Msg: inflight.HealthReply{Health: wire.Health{Healthy: true, Version: "1.1.65"}}},
		Msg{Server: 1, Msg: created("ses_b1", "deploy the box")},
		Msg{Server: 1, Msg: busy("ses_b1")},
	)
	return m
}

func lose(m Model, i int) Model {
	return send(m, Msg{Server: i, Msg: wire.ConnState{State: wire.Disconnected, Err: errors.New("connection refused"), RetryAt: now.Add(time.Minute)}})
}

func lines(m Model) []string {
	return strings.Split(ansi.Strip(m.View().Content), "\n")
}

// TestOneTree: both servers' groups and sessions are on one screen, each
// session under its own server, and ids never cross.
func TestOneTree(t *testing.T) {
	m := scene()
	if m.Screen(0).State().Session("ses_b1") != nil || m.Screen(1).State().Session("ses_a1") != nil {
		t.Fatal("a session reached the other server's screen")
	}
	screen := lines(m)
	order := []string{"▾ 1 127.0.0.1:4096  OpenCode 1.18.33  ● connected", "read the docs", "fix the parser", "write the tests",
		"▾ 2 box:4097  OpenCode 1.1.65  ● connected", "deploy the box"}
	at := 0
	for _, want := range order {
		for at < len(screen) && !strings.Contains(screen[at], want) {
			at++
		}
		if at == len(screen) {
			t.Fatalf("%q missing, or out of order:\n%s", want, strings.Join(screen, "\n"))
		}
	}
	if len(screen) != 20 {
		t.Errorf("%d lines, want 20", len(screen))
	}
}

// TestCursorCrossesServers: j and k walk every line of the one tree,
// from one server's rows into the next's; G, g, ] [ and 2 jump.
func TestCursorCrossesServers(t *testing.T) {
	m := scene()
	type pos struct {
		server int
		id     string
	}
	at := func(m Model) pos { s, id := m.Selected(); return pos{s, id} }
	walk := []pos{{0, ""}, {0, "ses_a3"}, {0, "ses_a1"}, {0, "ses_a2"}, {1, ""}, {1, "ses_b1"}, {1, "ses_b1"}}
	for i, want := range walk {
		if i > 0 {
			m = press(m, "j")
		}
		if got := at(m); got != want {
			t.Fatalf("after %d j: %v, want %v", i, got, want)
		}
	}
	if sel := m.Screen(1).Selected(); sel != "ses_b1" {
		t.Errorf("server 2's own screen selects %q", sel)
	}
	for i := len(walk) - 3; i >= 0; i-- {
		m = press(m, "k")
		if got := at(m); got != walk[i] {
			t.Fatalf("k back to line %d: %v, want %v", i, got, walk[i])
		}
	}
	for _, c := range []struct {
		key  string
		want pos
	}{{"G", pos{1, "ses_b1"}}, {"g", pos{0, ""}}, {"]", pos{1, ""}}, {"]", pos{0, ""}}, {"[", pos{1, ""}}, {"1", pos{0, ""}}, {"2", pos{1, ""}}} {
		if m = press(m, c.key); at(m) != c.want {
			t.Errorf("%s: %v, want %v", c.key, at(m), c.want)
		}
	}
	m = press(m, "1", "/", "2")
	if s, _ := m.Selected(); s != 0 {
		t.Error("a digit typed in the filter jumped to a server")
	}
}

// TestFoldGroup: left folds a group to its line, j then steps over its
// rows, right unfolds, enter toggles; left on a root goes up to its
// server's line.
func TestFoldGroup(t *testing.T) {
	m := press(scene(), "left")
	if v := strings.Join(lines(m), "\n"); !strings.Contains(v, "▸ 1 127.0.0.1:4096") || strings.Contains(v, "fix the parser") {
		t.Fatalf("server 1 folded:\n%s", v)
	}
	if m = press(m, "j"); func() bool { s, id := m.Selected(); return s != 1 || id != "" }() {
		t.Errorf("j from a folded group: %v", func() any { s, id := m.Selected(); return []any{s, id} }())
	}
	m = press(m, "k", "right")
	if v := strings.Join(lines(m), "\n"); !strings.Contains(v, "▾ 1 127.0.0.1:4096") || !strings.Contains(v, "fix the parser") {
		t.Fatalf("server 1 unfolded:\n%s", v)
	}
	m = press(m, "enter")
	if v := strings.Join(lines(m), "\n"); !strings.Contains(v, "▸ 1") {
		t.Fatalf("enter did not fold:\n%s", v)
	}
	m = press(m, "enter", "j", "left")
	if s, id := m.Selected(); s != 0 || id != "" {
		t.Errorf("left on a root: server %d %q, want the group line", s, id)
	}
	m = press(m, "j", "j", "left")
	if _, id := m.Selected(); id != "ses_a1" || !m.Screen(0).Tree().Collapsed("ses_a1") {
		t.Errorf("left on an open parent should fold it: selected %q, folded %v", id, m.Screen(0).Tree().Collapsed("ses_a1"))
	}
}

// TestBarSumsAndShowsDown: one server lost, the other live; the bar
// sums the counts and says which is down; its group says down and its
// rows stay, drawn stale; the live server's do not.
func TestBarSumsAndShowsDown(t *testing.T) {
	m := lose(scene(), 1)
	ls := lines(m)
	bar := ls[0]
	for _, want := range []string{"[1 127.0.0.1:4096 1.18.33 ● 2 running]", "2 box:4097 1.1.65 ✗ down 1 running", "all: 3 running  0 waiting  0 failed", "1 of 2 down", "[ ] 1-9 jump"} {
		if !strings.Contains(bar, want) {
			t.Errorf("bar lacks %q:\n%s", want, bar)
		}
	}
	if ansi.StringWidth(bar) != 160 || len(ls) != 20 {
		t.Errorf("%d lines, bar %d cells; want 20 and 160", len(ls), ansi.StringWidth(bar))
	}
	v := strings.Join(ls, "\n")
	if !strings.Contains(v, "▾ 2 box:4097  OpenCode 1.1.65  ✗ down") || !strings.Contains(v, "deploy the box") {
		t.Errorf("down server's group or rows:\n%s", v)
	}
	if !m.Screen(1).Tree().Stale() || m.Screen(0).Tree().Stale() {
		t.Errorf("stale: server 1 %v, server 2 %v; want only server 2's rows stale", m.Screen(0).Tree().Stale(), m.Screen(1).Tree().Stale())
	}
	m = press(m, "2")
	if v := strings.Join(lines(m), "\n"); !strings.Contains(v, "✗ down: connection refused") || !strings.Contains(v, "server 2 of 2") {
		t.Errorf("the down server's group detail:\n%s", v)
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

// TestAdded: a server found later joins as the next group, sized, and
// its messages reach it.
func TestAdded(t *testing.T) {
	m := press(scene(), "s", "s") // a sort chosen before the server is found applies to it too
	want := m.Screen(0).Tree().Sort()
	m = send(m, Added{Screen: screen("http://found:4096")}, Msg{Server: 2, Msg: created("ses_c", "on found")})
	if got := m.Screen(2).Tree().Sort(); got != want || want == screen("x").Tree().Sort() {
		t.Errorf("the found server sorts by %v, the others by %v", got, want)
	}
	m = press(m, "3")
	ls := lines(m)
	if s, _ := m.Selected(); s != 2 || !strings.Contains(ls[0], "[3 found:4096") || len(ls) != 20 {
		t.Fatalf("server %d selected, %d lines:\n%s", s, len(ls), strings.Join(ls, "\n"))
	}
	if v := strings.Join(ls, "\n"); !strings.Contains(v, "▾ 3 found:4096") || !strings.Contains(v, "on found") || !strings.Contains(v, "deploy the box") {
		t.Errorf("the found server's group:\n%s", v)
	}
}

// TestFilterAndSortEveryServer: a filter typed on one server's screen
// filters every server's rows; s sorts them all.
func TestFilterAndSortEveryServer(t *testing.T) {
	m := press(scene(), "/", "d", "e", "p", "enter")
	v := strings.Join(lines(m), "\n")
	if !strings.Contains(v, "deploy the box") || strings.Contains(v, "fix the parser") || m.Screen(1).Tree().Filter() != "dep" {
		t.Errorf("filter dep over both servers:\n%s", v)
	}
	if m = send(m, Added{Screen: screen("http://found:4096")}); m.Screen(2).Tree().Filter() != "dep" {
		t.Errorf("a server found later is not filtered: %q", m.Screen(2).Tree().Filter())
	}
	m = press(m, "s")
	if m.Screen(0).Tree().Sort() != m.Screen(1).Tree().Sort() || m.Screen(0).Tree().Sort().String() == "newest" {
		t.Errorf("s sorted %v and %v", m.Screen(0).Tree().Sort(), m.Screen(1).Tree().Sort())
	}
}

// TestMouse: a click on a line of the one tree selects it, in whichever
// server; the wheel moves the cursor three lines across servers.
func TestMouse(t *testing.T) {
	m := scene()
	// The bar, then the header's two lines, then the tree's lines: 0 a's
	// group, 1-3 its sessions, 4 b's group, 5 b's session.
	m = send(m, tea.MouseClickMsg{X: 10, Y: 3 + 5, Button: tea.MouseLeft})
	if s, id := m.Selected(); s != 1 || id != "ses_b1" {
		t.Fatalf("click on b's session: server %d %q", s, id)
	}
	m = send(m, tea.MouseWheelMsg{X: 10, Y: 5, Button: tea.MouseWheelUp})
	if s, id := m.Selected(); s != 0 || id != "ses_a1" {
		t.Fatalf("wheel up 3 lines from b's session: server %d %q, want a's second root", s, id)
	}
	m = send(m, tea.MouseClickMsg{X: 10, Y: 3 + 4, Button: tea.MouseLeft})
	if s, id := m.Selected(); s != 1 || id != "" {
		t.Fatalf("click on b's group line: server %d %q", s, id)
	}
}

// TestDownWhileRetrying: a server lost and being tried again is down
// between attempts too (its stream says connecting); one still making
// its first attempt is only connecting.
func TestDownWhileRetrying(t *testing.T) {
	m := lose(scene(), 1)
	m = send(m, Msg{Server: 1, Msg: wire.ConnState{State: wire.Connecting, Attempt: 1}})
	if v := strings.Join(lines(m), "\n"); !strings.Contains(v, "▾ 2 box:4097  OpenCode 1.1.65  ✗ down") || !strings.Contains(v, "1 of 2 down") {
		t.Errorf("a lost server trying again:\n%s", v)
	}
	m = send(twoScreens(), Msg{Server: 1, Msg: wire.ConnState{State: wire.Connecting, Attempt: 1}})
	if v := strings.Join(lines(m), "\n"); !strings.Contains(v, "▾ 2 box:4097  ○ connecting…") || strings.Contains(v, "down") {
		t.Errorf("a server on its first attempt:\n%s", v)
	}
	m = send(m, Msg{Server: 1, Msg: wire.ConnState{State: wire.Connecting, Attempt: 2}})
	if v := strings.Join(lines(m), "\n"); !strings.Contains(v, "▾ 2 box:4097  ✗ down") {
		t.Errorf("a server on its second attempt:\n%s", v)
	}
}

// TestHelpListsServerKeys: with the servers' keys handed to each screen
// (as octop does), the ? help lists [ ] and 1-9 beside the screen's keys.
func TestHelpListsServerKeys(t *testing.T) {
	keyed := func(url string) ui.Model {
		return ui.New(ui.Options{ServerURL: url, NoColor: true, Clock: func() time.Time { return now },
			MoreKeys: DefaultKeyMap().ShortHelp()})
	}
	// At 80 columns too: the columns grow longer rather than lose keys
	// off the right edge.
	for _, width := range []int{160, 80} {
		m, _ := New([]ui.Model{keyed("http://127.0.0.1:4096"), keyed("http://box:4097")}, true).Update(tea.WindowSizeMsg{Width: width, Height: 30})
		sc := strings.Join(lines(press(m.(Model), "?")), "\n")
		for _, want := range []string{"previous server", "next server", "1-9", "server N", "quit", "abort subtree", "inbox", "copy task_id"} {
			if !strings.Contains(sc, want) {
				t.Errorf("%d columns: the ? help lacks %q:\n%s", width, want, sc)
			}
		}
	}
}
