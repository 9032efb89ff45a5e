package servers

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/ui"
)

// Screen is the ui's root model with the replay's keys in front: space,
// + and - drive the Player (in a Cmd, not in Update). Everything else goes
// to the root, which was made with ui.Options.Demo: its keys that only
// read work on the recording, those that would change something answer
// "<label>: read-only".
type Screen struct {
	inner  tea.Model
	player Control
	label  string // "replay" or "demo", for the notices
	hint   string // the first notice: which keys drive the replay
	keys   ReplayKeyMap
}

// typist is a screen that says when its keys are text or a room's (ui.Model).
type typist interface{ Typing() bool }

// Control is what the replay's keys drive: a Player, or the Players of
// a recording of several servers together (Group).
type Control interface {
	Toggle() (paused bool)
	Faster() (speed float64)
	Slower() (speed float64)
	State() (paused bool, speed float64)
}

// NewScreen puts the replay's keys in front of inner (a ui.Model, or a
// servers.Model of several).
func NewScreen(inner tea.Model, p Control, label string) Screen {
	return Screen{inner: inner, player: p, label: label, keys: DefaultReplayKeyMap(),
		hint: label + ": space pauses, + plays faster, - slower"}
}

// WithHint is s with another first notice (one that says the recording
// was cut short, say).
func (s Screen) WithHint(hint string) Screen {
	s.hint = hint
	return s
}

// Init starts the root and says which keys drive the replay.
func (s Screen) Init() tea.Cmd {
	return tea.Batch(s.inner.Init(), yield(ui.FlashMsg{Text: s.hint}))
}

// Update takes the replay's keys and passes the rest on.
func (s Screen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if cmd, done := s.key(k); done {
			return s, cmd
		}
	}
	var cmd tea.Cmd
	s.inner, cmd = s.inner.Update(msg)
	return s, cmd
}

// View is the root's.
func (s Screen) View() tea.View { return s.inner.View() }

// key handles k if it is the replay's. While the root's filter or a
// room is open (a transcript's search, an answer typed in the inbox), a
// space or a - is theirs.
func (s *Screen) key(k tea.KeyPressMsg) (tea.Cmd, bool) {
	if t, ok := s.inner.(typist); ok && t.Typing() {
		return nil, false
	}
	p := s.player
	switch {
	case key.Matches(k, s.keys.PlayPause):
		return func() tea.Msg {
			// The notice for the footer, the state for the header.
			paused := p.Toggle()
			state := ui.PlaybackMsg{State: "playing"}
			if paused {
				state.State = "paused"
			}
			return tea.BatchMsg{yield(s.notice(paused, speedOf(p))), yield(state)}
		}, true
	case key.Matches(k, s.keys.Faster):
		return func() tea.Msg { return s.notice(pausedOf(p), p.Faster()) }, true
	case key.Matches(k, s.keys.Slower):
		return func() tea.Msg { return s.notice(pausedOf(p), p.Slower()) }, true
	}
	return nil, false
}

func speedOf(p Control) float64 { _, v := p.State(); return v }

// yield is a command that yields msg.
func yield(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }
func pausedOf(p Control) bool   { v, _ := p.State(); return v }

// notice says where the replay stands.
func (s Screen) notice(paused bool, speed float64) ui.FlashMsg {
	if paused {
		return ui.FlashMsg{Text: fmt.Sprintf("%s: paused at %g× (space plays)", s.label, speed)}
	}
	return ui.FlashMsg{Text: fmt.Sprintf("%s: playing at %g×", s.label, speed)}
}
