package drive

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

var start = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// toy is a screen with a clock tick each second (Every), a notice that
// expires after 4s (After), and a slow command: it logs each message it
// gets with the clock's time.
type toy struct {
	clk    *Clock
	log    *[]string
	notice string
}

type (
	tickMsg    struct{}
	expireMsg  struct{}
	slowDone   struct{}
	noticeMsg  string
	batchedMsg int
)

func (m toy) Init() tea.Cmd {
	return m.clk.Every(time.Second, func(time.Time) tea.Msg { return tickMsg{} })
}

func (m toy) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	*m.log = append(*m.log, fmt.Sprintf("%s %T", m.clk.Now().Sub(start), msg))
	switch msg := msg.(type) {
	case tickMsg:
		return m, m.Init()
	case noticeMsg:
		m.notice = string(msg)
		return m, m.clk.After(4*time.Second, func(time.Time) tea.Msg { return expireMsg{} })
	case expireMsg:
		m.notice = ""
	case tea.KeyPressMsg:
		switch msg.String() {
		case "s": // slower than the old drivers' cut-off
			return m, func() tea.Msg { time.Sleep(500 * time.Millisecond); return slowDone{} }
		case "b":
			return m, tea.Batch(func() tea.Msg { return batchedMsg(1) },
				tea.Sequence(func() tea.Msg { return batchedMsg(2) }, func() tea.Msg { return batchedMsg(3) }))
		case "n":
			return m, func() tea.Msg { return noticeMsg("hello") }
		case "q":
			return m, tea.Quit
		}
	}
	return m, nil
}

func (m toy) View() tea.View { return tea.NewView("notice: " + m.notice) }

func newToy(t *testing.T) (*Driver[toy], *[]string) {
	clk := NewClock(t, start)
	log := &[]string{}
	return New(t, toy{clk: clk, log: log}, clk), log
}

// Timers wait for the clock: nothing fires until Advance, which fires each
// at its own time, re-armed ones included, earliest first.
func TestTimersFireOnlyWhenTheClockMoves(t *testing.T) {
	d, log := newToy(t)
	d.Init().Press("n").Expect("notice: hello")
	if got := d.Clock().Pending(); !slices.Equal(got, []time.Duration{time.Second, 4 * time.Second}) {
		t.Fatalf("pending %v, want the tick in 1s and the expiry in 4s", got)
	}
	*log = nil
	d.Advance(3500 * time.Millisecond).Expect("notice: hello")
	want := []string{"1s drive.tickMsg", "2s drive.tickMsg", "3s drive.tickMsg"}
	if !slices.Equal(*log, want) {
		t.Fatalf("after 3.5s the screen got %q, want %q", *log, want)
	}
	if got := d.Clock().Now().Sub(start); got != 3500*time.Millisecond {
		t.Errorf("the clock is at %v, want 3.5s", got)
	}
	*log = nil
	d.Advance(time.Second).ExpectNot("hello")
	// Both are due at 4s: the expiry, filed at 0s, before the tick the 3s
	// tick filed; the tick due at 5s waits.
	if want := []string{"4s drive.expireMsg", "4s drive.tickMsg"}; !slices.Equal(*log, want) {
		t.Fatalf("got %q, want %q", *log, want)
	}
	if got := d.Msgs(); len(got) != 2 {
		t.Errorf("Msgs after Advance = %v, want the tick and the expiry", got)
	}
}

// A command slower than the old drivers' 300-400 ms cut-off is waited for.
func TestASlowCommandIsNotDropped(t *testing.T) {
	d, log := newToy(t)
	d.Press("s")
	if got := d.Msgs(); len(got) != 1 || got[0] != (slowDone{}) || !strings.HasSuffix((*log)[len(*log)-1], "slowDone") {
		t.Fatalf("after a slow command: msgs %v, log %q", got, *log)
	}
}

// Batches and sequences are opened; their messages come in order.
func TestBatchesAndSequencesInOrder(t *testing.T) {
	d, _ := newToy(t)
	d.Press("b")
	want := []tea.Msg{batchedMsg(1), batchedMsg(2), batchedMsg(3)}
	if got := d.Msgs(); !slices.Equal(got, want) {
		t.Fatalf("msgs %v, want %v", got, want)
	}
	if got := d.Run(tea.Batch(func() tea.Msg { return batchedMsg(7) }, nil)); !slices.Equal(got, []tea.Msg{batchedMsg(7)}) {
		t.Errorf("Run = %v, want the one message", got)
	}
}

// tea.Quit ends the step and is reported.
func TestQuit(t *testing.T) {
	d, _ := newToy(t)
	if d.Press("j").Quit() {
		t.Fatal("quit before q")
	}
	if !d.Press("q").Quit() {
		t.Fatal("q did not quit")
	}
}

// The clock's cleanup releases the timers still waiting.
func TestCloseReleasesTimers(t *testing.T) {
	d, _ := newToy(t)
	d.Init()
	done := make(chan struct{})
	go func() {
		d.Clock().Close()
		close(done)
	}()
	<-done
	if got := d.Clock().Pending(); len(got) != 0 {
		t.Errorf("pending after Close: %v", got)
	}
	if got := d.Run(d.Clock().After(time.Second, func(time.Time) tea.Msg { return tickMsg{} })); len(got) != 0 {
		t.Errorf("a timer run after Close yielded %v", got)
	}
}

func TestKeyNames(t *testing.T) {
	for name, want := range map[string]tea.KeyPressMsg{
		"enter":     {Code: tea.KeyEnter},
		"esc":       {Code: tea.KeyEscape},
		"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
		"ctrl+s":    {Code: 's', Mod: tea.ModCtrl},
		"j":         {Code: 'j', Text: "j"},
		"N":         {Code: 'n', Mod: tea.ModShift, Text: "N"},
		"]":         {Code: ']', Text: "]"},
		"space":     {Code: tea.KeySpace, Text: " "},
	} {
		got, ok := Key(name)
		if !ok || got != want {
			t.Errorf("Key(%q) = %+v, %v; want %+v", name, got, ok, want)
		}
		if got.String() != want.String() {
			t.Errorf("Key(%q) reads %q", name, got.String())
		}
	}
	for _, name := range []string{"", "jj", "ctrl+", "hyper+x"} {
		if _, ok := Key(name); ok {
			t.Errorf("Key(%q) is a key", name)
		}
	}
}
