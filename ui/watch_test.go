package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/octop-dev/octop/internal/alert"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/watchdog"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/inflight"
	"github.com/octop-dev/octop/ui/room"
)

// clock is a screen clock a test moves by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

// watchModel is the screen with a watchdog (loop 3, stall 60s, bell), after
// the first look at an empty server: what comes next is news.
func watchModel(t *testing.T, w, h int, clk *clock, opts ...func(*Options)) Model {
	t.Helper()
	cfg := watchdog.Config{Loop: 3, Stall: time.Minute}
	all := append([]func(*Options){func(o *Options) {
		o.Watchdog, o.Notify, o.Clock = &cfg, alert.Bell, clk.now
	}}, opts...)
	m := newTestModel(t, w, h, all...)
	return send(t, m, inflight.SnapshotReply{Tag: m.in.Tag(), Snap: model.Snapshot{Complete: true}})
}

// runaways is a root with three children: one calls the same grep again
// and again, one goes quiet with nothing running, one runs a long test
// suite (work, not a stall).
func runaways() EventsMsg {
	evs := []wire.Event{created("ses_root", "", "hunt the flaky test", 0), userMsg("ses_root", 0),
		busy("ses_root"), asstMsg("ses_root", 900, 0.01, 1)}
	kids := []struct{ id, title string }{
		{"ses_loop", "find where it flakes"}, {"ses_quiet", "read the CI logs"}, {"ses_work", "run it 50 times"},
	}
	for i, k := range kids {
		s := 10 + float64(i)
		evs = append(evs, taskCall("ses_root", fmt.Sprintf("prt_t%d", i), k.id, k.title, wire.ToolRunning, s),
			created(k.id, "ses_root", k.title, s), userMsg(k.id, s), busy(k.id), asstMsg(k.id, 400, 0.002, s+1))
	}
	grep := `{"command":"grep -rn flaky ."}`
	for i := range 3 {
		status, end := wire.ToolCompleted, 20+float64(i)+0.5
		if i == 2 {
			status, end = wire.ToolRunning, -1
		}
		evs = append(evs, toolCall("ses_loop", fmt.Sprintf("prt_l%d", i), "bash", status, "grep -rn flaky .", grep, 20+float64(i), end))
	}
	evs = append(evs,
		toolCall("ses_quiet", "prt_q0", "read", wire.ToolCompleted, "ci.log", `{"filePath":"ci.log"}`, 21, 21.2),
		toolCall("ses_work", "prt_w0", "bash", wire.ToolRunning, "go test -count=50 ./...", `{"command":"go test -count=50 ./..."}`, 22, -1))
	return events(evs...)
}

// TestRunawayGolden pins the marks where a person sees them: the word in
// the tree, the evidence in the detail pane, the count and the last
// notification in the header.
func TestRunawayGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			clk := &clock{now}
			m := send(t, watchModel(t, size[0], size[1], clk), runaways())
			clk.advance(61 * time.Second)
			m = send(t, m, tickMsg{})
			m = send(t, m, room.SelectMsg{ID: "ses_loop"})
			out := screen(m)
			checkScreenShape(t, out, size[0], size[1])
			golden.RequireEqual(t, out)
		})
	}
}

// rowOf is the tree's line that shows title (the header may name it too).
func rowOf(screen, title string) string {
	for _, l := range strings.Split(screen, "\n")[2:] {
		if strings.Contains(l, title) {
			return l
		}
	}
	return ""
}

func TestRunawayMarksAppearAndClear(t *testing.T) {
	clk := &clock{now}
	m := send(t, watchModel(t, 160, 48, clk), runaways())
	sc := screen(m)
	if !strings.Contains(rowOf(sc, "find where it flakes"), "⚠ loop") || !strings.Contains(sc, "⚠ 1 runaway") {
		t.Fatalf("no loop mark after 3 identical calls:\n%s", sc)
	}
	if strings.Contains(rowOf(sc, "read the CI logs"), "⚠") {
		t.Fatal("the quiet child is marked before --stall has passed")
	}
	clk.advance(61 * time.Second)
	m = send(t, m, tickMsg{})
	sc = screen(m)
	if !strings.Contains(rowOf(sc, "read the CI logs"), "⚠ stall") || !strings.Contains(sc, "⚠ 2 runaway") {
		t.Fatalf("no stall mark after 61s of silence:\n%s", sc)
	}
	if strings.Contains(rowOf(sc, "run it 50 times"), "⚠") {
		t.Error("a long bash command is marked as a stall")
	}
	// It speaks again: the mark goes.
	m = send(t, m, events(reply("ses_quiet", "The flake is in TestRetry.", 90)))
	sc = screen(m)
	if strings.Contains(rowOf(sc, "read the CI logs"), "⚠") || !strings.Contains(sc, "⚠ 1 runaway") {
		t.Fatalf("the stall mark stayed after the session spoke:\n%s", sc)
	}
	// The loop's repeats leave the window of the last 20 calls.
	var evs []wire.Event
	for i := range 20 {
		in := fmt.Sprintf(`{"filePath":"f%d.go"}`, i)
		evs = append(evs, toolCall("ses_loop", fmt.Sprintf("prt_x%d", i), "read", wire.ToolCompleted, "f.go", in, 30, 30.1))
	}
	sc = screen(send(t, m, events(evs...)))
	if strings.Contains(rowOf(sc, "find where it flakes"), "⚠") || strings.Contains(sc, "runaway") {
		t.Fatalf("the loop mark stayed after 20 different calls:\n%s", sc)
	}
}

// TestNoticeUntilSeen: the header keeps the last notification until the
// next key press.
func TestNoticeUntilSeen(t *testing.T) {
	m := send(t, watchModel(t, 160, 48, &clock{now}), runaways())
	if !strings.Contains(screen(m), "🔔 loop: find where it flakes") {
		t.Fatalf("the header does not show the notification:\n%s", screen(m))
	}
	m = send(t, m, tickMsg{})
	if !strings.Contains(screen(m), "🔔 loop") {
		t.Fatal("the notification went before it was seen")
	}
	if sc := screen(press(t, m, "j")); strings.Contains(sc, "🔔") {
		t.Fatalf("the notification stayed after a key press:\n%s", sc)
	}
}

// notified runs the commands Update returned and gives the terminal
// output (the bell, OSC) they ask for. It must not be handed a tick.
func notified(cmd tea.Cmd) string {
	if cmd == nil {
		return ""
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		var b strings.Builder
		for _, c := range msg {
			b.WriteString(notified(c))
		}
		return b.String()
	case tea.RawMsg:
		return fmt.Sprint(msg.Msg)
	}
	return ""
}

// TestNotifyOnlyWhatMatters: the terminal is called and the hook run when
// something fails, waits on the person, runs away, or a root ends; never
// for a child that finishes normally, nor a session that starts.
func TestNotifyOnlyWhatMatters(t *testing.T) {
	var mu sync.Mutex
	var hooked []string
	onEvent := func(e watchdog.Event) {
		mu.Lock()
		defer mu.Unlock()
		hooked = append(hooked, e.Name+" "+e.ID)
	}
	clk := &clock{now}
	m := watchModel(t, 160, 48, clk, func(o *Options) { o.OnEvent = onEvent })
	steps := []struct {
		name string
		evs  []wire.Event
		bell bool
	}{
		{"a root starts", []wire.Event{created("ses_r", "", "root", 0), userMsg("ses_r", 0), busy("ses_r")}, false},
		{"a child starts", []wire.Event{created("ses_c", "ses_r", "child", 1), userMsg("ses_c", 1), busy("ses_c")}, false},
		{"a child finishes normally", []wire.Event{finished("ses_c", 10, 0, 2), idle("ses_c")}, false},
		{"a child waits on the person", []wire.Event{created("ses_p", "ses_r", "asker", 3), userMsg("ses_p", 3),
			busy("ses_p"), permission("ses_p", "per_1")}, true},
		{"a child fails", []wire.Event{created("ses_f", "ses_r", "failer", 4), userMsg("ses_f", 4), busy("ses_f"),
			wire.SessionError{SessionID: "ses_f", Error: &wire.ErrorInfo{Name: "APIError"}}, idle("ses_f")}, true},
		{"the root finishes", []wire.Event{finished("ses_r", 10, 0, 5), idle("ses_r")}, true},
	}
	for _, s := range steps {
		clk.advance(2 * time.Second) // apart: a call within a second of the last waits (TestCallsHeldBack)
		nm, cmd := m.Update(events(s.evs...))
		m = nm.(Model)
		if got := notified(cmd); (got == "\a") != s.bell || (got != "" && got != "\a") {
			t.Errorf("%s: the terminal got %q, want a bell: %v", s.name, got, s.bell)
		}
	}
	want := []string{"session.waiting ses_p", "session.failed ses_f", "session.done ses_r"}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(hooked, ", ") != strings.Join(want, ", ") {
		t.Errorf("the hook ran for %v, want %v", hooked, want)
	}
}

// TestBurstRingsOnce: notable events in one batch ring the terminal
// once, the header names the last and how many more; the hook runs for
// each.
func TestBurstRingsOnce(t *testing.T) {
	var mu sync.Mutex
	hooked := 0
	m := watchModel(t, 160, 48, &clock{now}, func(o *Options) {
		o.OnEvent = func(watchdog.Event) { mu.Lock(); hooked++; mu.Unlock() }
	})
	var evs []wire.Event
	for _, id := range []string{"ses_1", "ses_2", "ses_3"} {
		evs = append(evs, created(id, "", "job "+id, 0), userMsg(id, 0), busy(id),
			wire.SessionError{SessionID: id, Error: &wire.ErrorInfo{Name: "APIError"}}, idle(id))
	}
	nm, cmd := m.Update(events(evs...))
	if got := notified(cmd); got != "\a" {
		t.Errorf("three failures in a batch wrote %q, want one bell", got)
	}
	if sc := screen(nm.(Model)); !strings.Contains(sc, "🔔 failed: job ses_3 (APIError) (+2 more)") {
		t.Errorf("the header does not sum the burst up:\n%s", sc)
	}
	mu.Lock()
	defer mu.Unlock()
	if hooked != 3 {
		t.Errorf("the hook ran %d times, want 3", hooked)
	}
}

// TestCallsHeldBack: three asks within a second ring once for the first
// and once more, a second on, for the two held back; the header counts
// every one the person has not seen, across batches, until a key press.
func TestCallsHeldBack(t *testing.T) {
	clk := &clock{now}
	m := watchModel(t, 160, 48, clk)
	m = send(t, m, events(created("ses_r", "", "fan", 0), userMsg("ses_r", 0), busy("ses_r")))
	rang := ""
	for i, id := range []string{"ses_1", "ses_2", "ses_3"} {
		clk.advance(300 * time.Millisecond)
		nm, cmd := m.Update(events(created(id, "ses_r", fmt.Sprintf("worker %d", i+1), 1), userMsg(id, 1), busy(id),
			permission(id, "per_"+id)))
		m = nm.(Model)
		rang += notified(cmd)
	}
	if rang != "\a" {
		t.Errorf("three asks within a second wrote %q, want one bell", rang)
	}
	if sc := screen(m); !strings.Contains(sc, "🔔 waiting: worker 3 (+2 more)") {
		t.Errorf("the header does not count the asks not seen yet:\n%s", sc)
	}
	clk.advance(time.Second)
	m.now = clk.now() // as the tick does; its own command would wait for the next second
	nm, cmd := watched(tickMsg{}, m, nil)
	if got := notified(cmd); got != "\a" {
		t.Errorf("a second on, the held-back asks wrote %q, want a bell", got)
	}
	m = press(t, nm.(Model), "j")
	clk.advance(2 * time.Second)
	m = send(t, m, events(created("ses_4", "ses_r", "worker 4", 1), userMsg("ses_4", 1), busy("ses_4"), permission("ses_4", "per_4")))
	if sc := screen(m); !strings.Contains(sc, "🔔 waiting: worker 4") || strings.Contains(sc, "more)") {
		t.Errorf("after a key press the count starts again:\n%s", sc)
	}
}

func TestNotifyNone(t *testing.T) {
	m := watchModel(t, 160, 48, &clock{now}, func(o *Options) { o.Notify = alert.None })
	_, cmd := m.Update(runaways())
	if got := notified(cmd); got != "" {
		t.Errorf("--notify none still wrote %q", got)
	}
}

// aborter records the subtrees the screen asks to abort.
type aborter struct {
	task.Server
	mu   sync.Mutex
	asks [][]string
}

func (a *aborter) Do(ctx context.Context, r task.Request) task.Reply {
	ab, ok := r.(task.AbortRequest)
	if !ok || !ab.Tree {
		return a.Server.Do(ctx, r)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asks = append(a.asks, ab.IDs)
	return task.AbortReply{IDs: ab.IDs}
}

// runCmds runs the commands and feeds what they reply back to the screen.
func runCmds(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	if cmd == nil {
		return m
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			m = runCmds(t, m, c)
		}
		return m
	}
	if msg == nil {
		return m
	}
	if _, ok := msg.(tea.RawMsg); ok {
		return m
	}
	return send(t, m, msg)
}

// TestAbortOnLoop: with --abort-on loop the looping child, and only it,
// is aborted once, and its detail says who stopped it.
func TestAbortOnLoop(t *testing.T) {
	ops := &aborter{}
	m := watchModel(t, 160, 48, &clock{now}, func(o *Options) {
		o.Watchdog.AbortOn = []watchdog.Kind{watchdog.Loop}
		o.Server = ops
	})
	nm, cmd := m.Update(runaways())
	m = runCmds(t, nm.(Model), cmd)
	if fmt.Sprint(ops.asks) != "[[ses_loop]]" {
		t.Fatalf("aborted %v, want exactly [[ses_loop]]", ops.asks)
	}
	if !strings.Contains(screen(m), "aborted by octop: loop: stopped 1 session") {
		t.Errorf("no notice of the abort:\n%s", screen(m))
	}
	// Nothing is recorded as octop's abort before the server says the
	// session stopped.
	if by := m.State().Session("ses_loop").AbortedBy(); by != "" {
		t.Errorf("AbortedBy = %q before the server said the session stopped", by)
	}
	// The server's answer: the child's run ends aborted. The loop goes on
	// no further, and nothing is aborted twice.
	nm, cmd = m.Update(events(aborted("ses_loop"), idle("ses_loop")))
	m = runCmds(t, nm.(Model), cmd)
	if len(ops.asks) != 1 {
		t.Errorf("aborted again: %v", ops.asks)
	}
	if by := m.State().Session("ses_loop").AbortedBy(); by != "octop: loop" {
		t.Errorf("AbortedBy = %q once the server said it stopped, want %q", by, "octop: loop")
	}
	m = press(t, m, "j") // the looping child, first under the root
	if sc := screen(m); !strings.Contains(sc, "aborted by octop: loop") || !strings.Contains(sc, `runaway ⚠ loop: bash "grep -rn flaky ." 3 times in a row`) {
		t.Errorf("the detail pane does not say why it stopped:\n%s", sc)
	}
}

// BenchmarkWatchdogBurst is BenchmarkEventBurst at 10,000 sessions with
// the watchdog off and on: what feeding it each batch costs the screen.
func BenchmarkWatchdogBurst(b *testing.B) {
	const n = 10_000
	for _, on := range []bool{false, true} {
		b.Run(fmt.Sprintf("watchdog=%v", on), func(b *testing.B) {
			o := Options{ServerURL: "http://127.0.0.1:4096", Clock: fixedClock}
			if on {
				o.Watchdog = &watchdog.Config{}
			}
			m := New(o)
			m = send(b, m, tea.WindowSizeMsg{Width: 160, Height: 48})
			m = send(b, m, bigTree(n))
			m = send(b, m, inflight.SnapshotReply{Tag: m.in.Tag(), Snap: model.Snapshot{Complete: true}})
			burst := make([]wire.Event, 1000)
			for i := range burst {
				kid := fmt.Sprintf("ses_r%05d_c%d", i%(n/10), i%9)
				burst[i] = toolCall(kid, kid+"_b", "bash", wire.ToolRunning, fmt.Sprintf("step %d", i), `{"command":"x"}`, 50, -1)
			}
			msg := events(burst...)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				nm, _ := m.Update(msg)
				m = nm.(Model)
				_ = m.View()
			}
		})
	}
}
