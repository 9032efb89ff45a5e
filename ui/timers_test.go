package ui

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/drive"
	"github.com/octop-dev/octop/internal/wire"
	uidiff "github.com/octop-dev/octop/ui/diff"
)

// Every timer of the screen runs on its Timer: under the test clock none
// fires until the clock moves, and each fires at its own time. These
// tests move the clock across each one.

// A notice stays flashFor, counted from the last one: the first's expiry
// must not clear a second shown meanwhile.
func TestNoticeExpiresOnTheClock(t *testing.T) {
	d := driver(t, send(t, newTestModel(t, 120, 40), fanOut()))
	d.Press("x").Expect("abort: not available yet")
	if got := d.Clock().Pending(); !slices.Equal(got, []time.Duration{flashFor}) {
		t.Fatalf("pending timers %v, want the notice's expiry in %v", got, flashFor)
	}
	d.Advance(3 * time.Second).Expect("abort: not available yet")
	d.Press("o").Expect("open: not available yet")
	d.Advance(time.Second).Expect("open: not available yet") // the first notice's time: not this one's
	d.Advance(flashFor - time.Second - time.Millisecond).Expect("open: not available yet")
	d.Advance(time.Millisecond).ExpectNot("not available yet")
}

// The result view of a running session asks again each second, and stops
// once the session has ended.
func TestResultRefreshesEachSecondWhileRunning(t *testing.T) {
	f, c := newFakeOpenCode(t)
	m := actionModel(t, f, c, created("ses_root", "", "root", 1), created("ses_run", "ses_root", "runner", 2), busy("ses_run"))
	f.SetStatus("ses_run", wire.SessionStatus{Type: wire.StatusBusy})
	f.setMessages(t, "ses_run", `[{"info":{"role":"user"},"parts":[]},{"info":{"role":"assistant","agent":"general"},"parts":[{"type":"tool","tool":"bash","state":{"status":"running","title":"sleep 5"}}]}]`)
	d := driver(t, send(t, m, SelectMsg{ID: "ses_run"}))
	reads := func() int { return len(f.RequestsTo("GET /session/ses_run/message")) }

	d.Press("o").Expect("status: running", "● bash  sleep 5")
	first := reads()
	d.Advance(999 * time.Millisecond)
	if reads() != first {
		t.Fatalf("the result was read again before a second passed (%d reads, then %d)", first, reads())
	}
	f.SetStatus("ses_run", wire.SessionStatus{Type: wire.StatusIdle})
	f.setMessages(t, "ses_run", `[{"info":{"role":"user"},"parts":[]},{"info":{"role":"assistant","agent":"general","finish":"stop","time":{"created":1,"completed":2}},"parts":[{"type":"text","text":"all done"}]}]`)
	d.Advance(time.Millisecond).Expect("status: complete", "all done")
	if reads() != first+1 {
		t.Fatalf("%d reads after the second, want %d", reads(), first+1)
	}
	if got := d.Clock().Pending(); len(got) != 0 {
		t.Errorf("timers %v still pending after the session ended; want the refresh stopped", got)
	}
}

// The files-changed room reads the messages again every RefreshEvery
// while the session runs, and no more once it has ended.
func TestDiffRefreshesWhileRunning(t *testing.T) {
	f, c := newFakeOpenCode(t)
	m := actionModel(t, f, c, created("ses_root", "", "root", 1), created("ses_run", "ses_root", "runner", 2), busy("ses_run"))
	f.SetStatus("ses_run", wire.SessionStatus{Type: wire.StatusBusy})
	d := driver(t, send(t, m, SelectMsg{ID: "ses_run"}))
	reads := func() int { return len(f.RequestsTo("GET /session/ses_run/message")) }

	d.Press("d")
	if reads() != 1 {
		t.Fatalf("d read the messages %d times, want once", reads())
	}
	d.Advance(uidiff.RefreshEvery - time.Millisecond)
	if reads() != 1 {
		t.Fatalf("read again before %v", uidiff.RefreshEvery)
	}
	d.Advance(time.Millisecond)
	if reads() != 2 {
		t.Fatalf("%d reads at %v, want 2", reads(), uidiff.RefreshEvery)
	}
	d.Send(events(idle("ses_run")))
	f.SetStatus("ses_run", wire.SessionStatus{Type: wire.StatusIdle})
	d.Advance(3 * uidiff.RefreshEvery)
	if reads() != 2 {
		t.Errorf("%d reads after the session ended, want no more than 2", reads())
	}
}

// The clock's tick moves the elapsed times once a second, on the second;
// while the connection is down it ticks fast, so the countdown to the next
// attempt moves as it runs.
func TestTickMovesTheClocks(t *testing.T) {
	clk := drive.NewClock(t, now)
	d := drive.New(t, newTestModel(t, 120, 30, func(o *Options) { o.Clock, o.Timer = clk.Now, clk }), clk)
	d.Init().Send(events(created("ses_a", "", "long job", 95), busy("ses_a"))) // created at now
	if got := d.Clock().Pending(); !slices.Equal(got, []time.Duration{time.Second}) {
		t.Fatalf("pending %v after Init, want the tick on the next second", got)
	}
	d.Expect("running · 0s").Advance(999 * time.Millisecond).Expect("running · 0s")
	d.Advance(time.Millisecond).Expect("running · 1s").Advance(2 * time.Second).Expect("running · 3s")

	d.Send(wire.ConnState{State: wire.Disconnected, Err: errRefused, RetryAt: clk.Now().Add(5 * time.Second), Attempt: 1})
	d.Advance(time.Second).Expect("retrying in 4s")
	if got := d.Clock().Pending(); !slices.Equal(got, []time.Duration{fastTick}) {
		t.Fatalf("pending %v while reconnecting, want the fast tick", got)
	}
	d.Advance(1100 * time.Millisecond).Expect("retrying in 3s")
	d.Send(wire.ConnState{State: wire.Connected, Attempt: 2})
	d.Advance(fastTick)
	if got := d.Clock().Pending(); len(got) != 1 || got[0] > time.Second {
		t.Errorf("pending %v once connected, want one tick within the second", got)
	}
}

// Under a test clock the text cursors do not blink (bubbles would time
// the blink itself); on the system clock's timers they do.
func TestCursorsStillUnderATestClock(t *testing.T) {
	if !newTestModel(t, 80, 24).styles.StillCursor {
		t.Error("a screen on a test clock has blinking cursors")
	}
	if New(Options{ServerURL: "http://x"}).styles.StillCursor {
		t.Error("a screen on the system clock has still cursors")
	}
	// A form with text inputs, typed into, under the driver: a blink
	// would fail the test (drive reports cursor messages).
	_, c := newFakeOpenCode(t)
	m := newTestModel(t, 120, 40, func(o *Options) { o.Server = live.New(c); o.NoColor = false })
	driver(t, m).Press("N", "enter").Type("desc").Press("enter").Type("prompt").Expect("Launch a task")
}

// The driver's story, as driver_test.go tells it: an abort, its notice,
// and the notice gone once its time is up.
func TestAbortNoticeComesAndGoes(t *testing.T) {
	f, c := newFakeOpenCode(t)
	d := driver(t, actionModel(t, f, c, created("ses_a", "", "a job", 1), busy("ses_a")))
	f.SetStatus("ses_a", wire.SessionStatus{Type: wire.StatusBusy})
	d.Press("j", "x").Expect("Abort a job").Press("y").Expect("aborted")
	d.Advance(flashFor).ExpectNot("aborted")
	if got := f.Mutations(); !slices.Equal(got, []string{"POST /session/ses_a/abort"}) {
		t.Errorf("sent %v", got)
	}
}

// TestEveryTimerGoesThroughTheTimer fails when code under ui starts a
// timer of its own (tea.Tick, tea.Every, the time package's, called or
// kept in a variable), which a
// test's clock could not hold: the root's go through Options.Timer, a
// room's through room.After. Only room.RealTimer calls Bubble Tea's.
func TestEveryTimerGoesThroughTheTimer(t *testing.T) {
	own := regexp.MustCompile(`\b(tea\.(Tick|Every)|time\.(After|AfterFunc|NewTimer|NewTicker|Tick|Sleep))\b`)
	files := 0
	err := filepath.WalkDir(".", func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		files++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			code, _, _ := strings.Cut(line, "//") // comments may name them
			if own.MatchString(code) && path != filepath.Join("room", "timer.go") {
				t.Errorf("%s:%d starts a timer of its own: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil || files < 20 {
		t.Fatalf("walked %d files: %v", files, err)
	}
}
