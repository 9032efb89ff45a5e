package servers

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/internal/record"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui"
)

// press sends one key to s and runs the Cmd it returns, as the program
// would, returning the notice it flashes ("" for none); what else the
// Cmd yields (the header's playback state) goes back to s.
func pressReplay(t *testing.T, s Screen, k tea.KeyPressMsg) (Screen, string) {
	t.Helper()
	m, cmd := s.Update(k)
	s = m.(Screen)
	if cmd == nil {
		return s, ""
	}
	msgs := []tea.Msg{cmd()}
	if b, ok := msgs[0].(tea.BatchMsg); ok {
		msgs = msgs[:0]
		for _, c := range b {
			msgs = append(msgs, c())
		}
	}
	notice := ""
	for _, msg := range msgs {
		if f, ok := msg.(ui.FlashMsg); ok {
			notice = f.Text
			continue
		}
		if _, ok := msg.(ui.PlaybackMsg); ok {
			m, _ = s.Update(msg)
			s = m.(Screen)
		}
	}
	return s, notice
}

func keyOf(text string) tea.KeyPressMsg {
	if text == " " {
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	return tea.KeyPressMsg{Code: rune(text[0]), Text: text}
}

var t0 = time.UnixMilli(1795286989756)

// recording is what w writes, read back.
func recording(t *testing.T, write func(w *record.Writer)) record.Recording {
	t.Helper()
	var buf bytes.Buffer
	w, err := record.NewWriter(&buf, "test", 0)
	if err != nil {
		t.Fatal(err)
	}
	write(w)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := record.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func idle(id string) []byte {
	return []byte(`{"type":"session.idle","properties":{"sessionID":"` + id + `"}}`)
}

func newScreen(t *testing.T) (Screen, *record.Player) {
	t.Helper()
	rec := recording(t, func(w *record.Writer) {
		w.Conn("s", t0, wire.ConnState{State: wire.Connected, Attempt: 1})
		w.Event("s", t0.Add(10), idle("ses_a"))
	})
	p, err := record.New(rec, record.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return NewScreen(ui.New(ui.Options{Demo: true, ReadOnly: "replay: read-only"}), p, "replay"), p
}

// TestScreenKeys: space pauses and plays, + and - step the speed, each
// saying where the replay stands; the mutating keys say read-only.
func TestScreenKeys(t *testing.T) {
	s, p := newScreen(t)
	steps := []struct {
		key, notice string
		paused      bool
		speed       float64
	}{
		{" ", "replay: paused at 1× (space plays)", true, 1},
		{"+", "replay: paused at 2× (space plays)", true, 2},
		{" ", "replay: playing at 2×", false, 2},
		{"=", "replay: playing at 4×", false, 4},
		{"-", "replay: playing at 2×", false, 2},
		{"-", "replay: playing at 1×", false, 1},
		{"-", "replay: playing at 0.5×", false, 0.5},
		{"-", "replay: playing at 0.25×", false, 0.25},
		{"-", "replay: playing at 0.25×", false, 0.25}, // the slowest
	}
	for i, st := range steps {
		var got string
		s, got = pressReplay(t, s, keyOf(st.key))
		paused, speed := p.State()
		if got != st.notice || paused != st.paused || speed != st.speed {
			t.Fatalf("step %d (%q): notice %q, paused %v at %g×; want %q, %v at %g×", i, st.key, got, paused, speed, st.notice, st.paused, st.speed)
		}
	}
	// The root, in Demo mode, answers the keys that would change
	// something (ui's TestDemo… tests cover the keys that only read).
	for _, k := range []string{"n", "N", "r", "R", "x", "X"} {
		m, _ := s.Update(keyOf(k)) // its Cmd only clears the notice later
		if got := ansi.Strip(m.View().Content); !strings.Contains(got, "replay: read-only") {
			t.Errorf("%q: the screen does not say replay: read-only:\n%s", k, got)
		}
	}
}

// TestScreenFilterTakesSpace: while the filter is typed, space and - are
// text, not the replay's keys.
func TestScreenFilterTakesSpace(t *testing.T) {
	s, p := newScreen(t)
	s, _ = pressReplay(t, s, keyOf("/"))
	s, _ = pressReplay(t, s, keyOf(" "))
	s, _ = pressReplay(t, s, keyOf("-"))
	if paused, speed := p.State(); paused || speed != 1 {
		t.Fatalf("keys typed in the filter drove the replay: paused %v at %g×", paused, speed)
	}
	s, _ = pressReplay(t, s, tea.KeyPressMsg{Code: tea.KeyEnter})
	if _, got := pressReplay(t, s, keyOf(" ")); got != "replay: paused at 1× (space plays)" {
		t.Errorf("after the filter, space: %q", got)
	}
}

// TestScreenRoomTakesSpace: while a room is open (here the timeline),
// space and - are the room's; once it closes, the replay's again.
func TestScreenRoomTakesSpace(t *testing.T) {
	s, p := newScreen(t)
	for _, msg := range []tea.Msg{tea.WindowSizeMsg{Width: 100, Height: 30}, ui.EventsMsg{{Event: wire.SessionCreated{Info: wire.Session{
		ID: "ses_a", Title: "a task", Time: wire.SessionTime{Created: t0.UnixMilli(), Updated: t0.UnixMilli()}}}}}} {
		m, _ := s.Update(msg)
		s = m.(Screen)
	}
	s, _ = pressReplay(t, s, keyOf("T"))
	if !s.inner.(ui.Model).Typing() {
		t.Fatal("T opened no room")
	}
	s, _ = pressReplay(t, s, keyOf(" "))
	s, _ = pressReplay(t, s, keyOf("-"))
	if paused, speed := p.State(); paused || speed != 1 {
		t.Fatalf("keys given to the timeline drove the replay: paused %v at %g×", paused, speed)
	}
	m, cmd := s.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	s = m.(Screen)
	if cmd != nil { // the room closes by a message of its own
		m, _ = s.Update(cmd())
		s = m.(Screen)
	}
	if _, got := pressReplay(t, s, keyOf(" ")); got != "replay: paused at 1× (space plays)" {
		t.Errorf("after the room closed, space: %q", got)
	}
}
