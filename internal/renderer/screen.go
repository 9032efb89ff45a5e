package renderer

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// Screen draws frames on a terminal, line by line. Set hands it a view;
// its own goroutine (Start) writes the lines that changed.
type Screen struct {
	out      io.Writer
	interval time.Duration
	profile  colorprofile.Profile
	wake     chan struct{}
	hurry    chan struct{} // a view set with SetNow: end the cap's wait
	stop     chan struct{}
	stopped  chan struct{}

	mu     sync.Mutex
	view   tea.View // the newest view, its Content in lines
	lines  []string // the newest view's lines
	dirty  bool     // view or size changed since the last draw
	now    bool     // the newest view answers input: draw it without the cap
	width  int
	height int
	full   bool // the next draw repaints every line

	// The drawer's own, touched by no other goroutine.
	shown   []string      // the lines on the terminal
	title   string        // the window title set
	mouse   tea.MouseMode // the mouse reporting turned on
	last    time.Time     // when the last frame was written
	frame   bytes.Buffer
	colours *colours // nil until a frame needs its colours brought down
}

// New returns a Screen that writes to out, a frame at most every interval,
// with colours brought down to profile.
func New(out io.Writer, width, height int, interval time.Duration, profile colorprofile.Profile) *Screen {
	return &Screen{
		out: out, interval: interval, profile: profile,
		wake: make(chan struct{}, 1), hurry: make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{}),
		width: width, height: height, full: true,
	}
}

// Set hands the screen the newest view. It returns at once: the drawer
// writes it when the frame cap allows, merged with any view after it.
func (s *Screen) Set(v tea.View) { s.set(splitLines(v.Content), v, false) }

// SetNow hands the screen a view that answers a key or a click: it is
// drawn at once, without waiting out the frame cap. The cap is there for
// a busy stream; a person's input comes a few times a second and should
// not wait behind it.
func (s *Screen) SetNow(v tea.View) { s.set(splitLines(v.Content), v, true) }

// SetLines is Set (or SetNow, when now) with the view's content given as
// its lines, v's Content ignored. A line that is the very string of the
// last frame's is compared at no cost; the screen keeps lines, not
// a copy: they must not change.
func (s *Screen) SetLines(lines []string, v tea.View, now bool) { s.set(lines, v, now) }

// splitLines is content's lines.
func splitLines(content string) []string {
	if content == "" {
		return nil
	}
	return strings.Split(content, "\n")
}

func (s *Screen) set(lines []string, v tea.View, now bool) {
	v.Content = ""
	s.mu.Lock()
	same := slices.Equal(lines, s.lines) && v.WindowTitle == s.view.WindowTitle && v.MouseMode == s.view.MouseMode
	s.view, s.lines = v, lines
	if !same {
		s.dirty = true
		s.now = s.now || now
	}
	s.mu.Unlock()
	if !same {
		s.poke()
		if now {
			select {
			case s.hurry <- struct{}{}:
			default:
			}
		}
	}
}

// Resize tells the screen the terminal's new size: the next frame repaints
// every line.
func (s *Screen) Resize(width, height int) {
	s.mu.Lock()
	s.width, s.height, s.full, s.dirty = width, height, true, true
	s.mu.Unlock()
	s.poke()
}

func (s *Screen) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Start runs the drawer until Stop.
func (s *Screen) Start() { go s.run() }

// Stop ends the drawer after it writes the newest view.
func (s *Screen) Stop() {
	close(s.stop)
	<-s.stopped
}

func (s *Screen) run() {
	defer close(s.stopped)
	for {
		select {
		case <-s.stop:
			s.Draw()
			return
		case <-s.wake:
		}
		// The frame cap: a frame soon after the last waits out the
		// interval, and draws what is newest then; a view that answers
		// input (SetNow) ends the wait.
		s.mu.Lock()
		now := s.now
		s.mu.Unlock()
		if wait := s.interval - time.Since(s.last); wait > 0 && !now {
			if !s.wait(wait) {
				s.Draw()
				return
			}
		}
		s.Draw()
	}
}

// wait waits out the frame cap, or less if a view that answers input
// comes; it returns false when the screen stops. A hurry is believed only
// if the now flag is still set: a SetNow already drawn may leave its hurry
// behind (its sender runs after the draw), and that must not let the next
// stream view skip the cap.
func (s *Screen) wait(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			return true
		case <-s.hurry:
			s.mu.Lock()
			now := s.now
			s.mu.Unlock()
			if now {
				return true
			}
		case <-s.stop:
			return false
		}
	}
}

// Draw writes the newest view now, if it changed: only the lines that
// differ from those on the terminal, in one write. Only the drawer's
// goroutine calls it, or a test with no drawer running.
func (s *Screen) Draw() {
	s.mu.Lock()
	if !s.dirty {
		s.mu.Unlock()
		return
	}
	v, lines, h, full := s.view, s.lines, s.height, s.full
	s.dirty, s.full, s.now = false, false, false
	s.mu.Unlock()

	s.frame.Reset()
	s.frame.WriteString(ansi.SetModeSynchronizedOutput)
	s.modes(v)
	s.drawLines(lines, h, full)
	s.frame.WriteString(ansi.ResetModeSynchronizedOutput)
	s.last = time.Now()
	s.write()
}

// modes writes the window title and the mouse reporting when they change.
func (s *Screen) modes(v tea.View) {
	if v.WindowTitle != s.title {
		s.frame.WriteString(ansi.SetWindowTitle(v.WindowTitle))
		s.title = v.WindowTitle
	}
	if v.MouseMode != s.mouse {
		s.frame.WriteString(mouseOff)
		switch v.MouseMode {
		case tea.MouseModeCellMotion:
			s.frame.WriteString(ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr)
		case tea.MouseModeAllMotion:
			s.frame.WriteString(ansi.SetModeMouseAnyEvent + ansi.SetModeMouseExtSgr)
		}
		s.mouse = v.MouseMode
	}
}

// mouseOff turns every kind of mouse reporting off.
const mouseOff = ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr

// drawLines writes each line that is not already on the terminal:
// moved to, the row erased, the line written whole and its style reset.
// Erased first, a line needs no measuring (a line as wide as the screen
// leaves the cursor on its last cell, which an erase after it would
// clear). Rows under the content are blank; lines past the height are not
// drawn.
func (s *Screen) drawLines(lines []string, h int, full bool) {
	if full {
		s.frame.WriteString(ansi.EraseEntireScreen)
		s.shown = s.shown[:0]
	}
	s.shown = resize(s.shown, h)
	for y := range h {
		var line string
		if y < len(lines) {
			line = strings.TrimSuffix(lines[y], "\r")
		}
		if line == s.shown[y] && !full {
			continue
		}
		if line == "" && full {
			s.shown[y] = line // the screen was just erased
			continue
		}
		s.frame.WriteString(ansi.CursorPosition(1, y+1))
		s.frame.WriteString(ansi.EraseEntireLine)
		s.frame.WriteString(line)
		s.frame.WriteString(ansi.ResetStyle)
		s.shown[y] = line
	}
}

// resize returns lines at length n, new rows unknown (so drawn).
func resize(lines []string, n int) []string {
	for len(lines) < n {
		lines = append(lines, unknownLine)
	}
	return lines[:n]
}

// unknownLine is a row whose content the screen does not know: no line
// equals it, so the next frame writes the row.
const unknownLine = "\x00unknown"

// write sends the frame to the terminal in one write, its colours brought
// down to the terminal's profile first.
func (s *Screen) write() {
	b := s.frame.Bytes()
	if s.profile < colorprofile.TrueColor {
		if s.colours == nil {
			s.colours = newColours(s.profile)
		}
		b = s.colours.convert(b)
	}
	_, _ = s.out.Write(b)
}
