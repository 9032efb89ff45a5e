package renderer

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// writes records each write the screen makes, safe for its drawer.
type writes struct {
	mu  sync.Mutex
	all []string
}

func (w *writes) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.all = append(w.all, string(p))
	return len(p), nil
}

func (w *writes) list() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.all...)
}

func (w *writes) last() string {
	l := w.list()
	if len(l) == 0 {
		return ""
	}
	return l[len(l)-1]
}

func view(lines ...string) tea.View { return tea.NewView(strings.Join(lines, "\n")) }

func TestDrawWritesOnlyTheLinesThatChanged(t *testing.T) {
	out := &writes{}
	s := New(out, 20, 4, 0, colorprofile.TrueColor)
	s.Set(view("alpha", "beta", "gamma"))
	s.Draw()
	first := out.last()
	for _, want := range []string{ansi.EraseEntireScreen, "alpha", "beta", "gamma"} {
		if !strings.Contains(first, want) {
			t.Fatalf("first frame %q lacks %q", first, want)
		}
	}

	s.Set(view("alpha", "BETA", "gamma"))
	s.Draw()
	second := out.last()
	if !strings.Contains(second, ansi.CursorPosition(1, 2)+ansi.EraseEntireLine+"BETA"+ansi.ResetStyle) {
		t.Errorf("the changed line is not written whole on row 2, erased first: %q", second)
	}
	if strings.Contains(second, "alpha") || strings.Contains(second, "gamma") || strings.Contains(second, ansi.EraseEntireScreen) {
		t.Errorf("lines that did not change were written again: %q", second)
	}

	n := len(out.list())
	s.Set(view("alpha", "BETA", "gamma"))
	s.Draw()
	if len(out.list()) != n {
		t.Errorf("the same view drew a frame: %q", out.last())
	}
}

func TestDrawBlanksRowsTheContentLeft(t *testing.T) {
	out := &writes{}
	s := New(out, 20, 4, 0, colorprofile.TrueColor)
	s.Set(view("one", "two", "three"))
	s.Draw()
	s.Set(view("one"))
	s.Draw()
	got := out.last()
	for _, row := range []int{2, 3} {
		if !strings.Contains(got, ansi.CursorPosition(1, row)+ansi.EraseEntireLine+ansi.ResetStyle) {
			t.Errorf("row %d, empty now, is not erased: %q", row, got)
		}
	}
	if strings.Contains(got, ansi.CursorPosition(1, 4)) {
		t.Errorf("row 4, empty before and after, was written: %q", got)
	}
}

func TestDrawKeepsToTheScreen(t *testing.T) {
	out := &writes{}
	s := New(out, 10, 2, 0, colorprofile.TrueColor)
	s.Set(view("1234567890", "second", "third, past the bottom"))
	s.Draw()
	got := out.last()
	if strings.Contains(got, "third") {
		t.Errorf("a line below the screen was drawn: %q", got)
	}
	if !strings.Contains(got, "1234567890"+ansi.ResetStyle+ansi.CursorPosition(1, 2)) {
		t.Errorf("a line as wide as the screen is not followed at once by the move to the next row (an erase after it would clear its last cell): %q", got)
	}
}

func TestResizeRepaintsEveryLine(t *testing.T) {
	out := &writes{}
	s := New(out, 20, 3, 0, colorprofile.TrueColor)
	s.Set(view("alpha", "beta"))
	s.Draw()
	s.Resize(30, 3)
	s.Draw()
	got := out.last()
	for _, want := range []string{ansi.EraseEntireScreen, "alpha", "beta"} {
		if !strings.Contains(got, want) {
			t.Errorf("the frame after a resize lacks %q: %q", want, got)
		}
	}
}

func TestColoursComeDownToTheTerminals(t *testing.T) {
	red := "\x1b[38;2;255;0;0mred\x1b[m"
	for _, tc := range []struct {
		profile colorprofile.Profile
		keeps   bool
	}{{colorprofile.TrueColor, true}, {colorprofile.ANSI256, false}, {colorprofile.Ascii, false}} {
		out := &writes{}
		s := New(out, 20, 1, 0, tc.profile)
		s.Set(view(red))
		s.Draw()
		got := out.last()
		if strings.Contains(got, "38;2;255;0;0") != tc.keeps {
			t.Errorf("profile %v: true colour kept = %v, want %v: %q", tc.profile, !tc.keeps, tc.keeps, got)
		}
		if !strings.Contains(got, "red") {
			t.Errorf("profile %v: the text is gone: %q", tc.profile, got)
		}
	}
}

func TestModesFollowTheView(t *testing.T) {
	out := &writes{}
	s := New(out, 20, 1, 0, colorprofile.TrueColor)
	v := view("x")
	v.WindowTitle = "octop"
	v.MouseMode = tea.MouseModeCellMotion
	s.Set(v)
	s.Draw()
	got := out.last()
	for _, want := range []string{ansi.SetWindowTitle("octop"), ansi.SetModeMouseButtonEvent, ansi.SetModeMouseExtSgr} {
		if !strings.Contains(got, want) {
			t.Errorf("first frame lacks %q: %q", want, got)
		}
	}
	v.Content = "y"
	s.Set(v)
	s.Draw()
	if got := out.last(); strings.Contains(got, "\x1b]") || strings.Contains(got, "1002") {
		t.Errorf("unchanged title and mouse mode written again: %q", got)
	}
}

// TestFrameCapMergesAndNeverLoses: views set faster than the interval are
// drawn merged, and the newest is always drawn.
func TestFrameCapMergesAndNeverLoses(t *testing.T) {
	s, out := firstDrawn(t, 1, 200*time.Millisecond)
	for i := range 50 {
		s.Set(view("burst " + strings.Repeat("x", i%7)))
	}
	s.Set(view("newest"))
	testwait.Eventually(t, func() bool { return strings.Contains(out.last(), "newest") }, 5*time.Second,
		"the newest view drawn")
	all := strings.Join(out.list(), "")
	if c := strings.Count(all, ansi.SetModeSynchronizedOutput); c > 3 {
		t.Errorf("51 views inside about one interval drew %d frames; want them merged", c)
	}
}

// TestInputIsDrawnWithoutTheCap: with a frame drawn a moment ago, a view
// from the stream waits out the interval (an hour here), but a view that
// answers a key is drawn at once, and with it what the stream changed. The
// program's model marks which views answer input.
func TestInputIsDrawnWithoutTheCap(t *testing.T) {
	s, out := firstDrawn(t, 2, time.Hour)
	m := drawn{inner: &lines{text: "event"}, screen: s}
	var next tea.Model = m
	next, _ = next.Update(tickMsg{})
	next.View()
	if got := len(out.list()); got != 1 {
		t.Fatalf("a stream's view drew at once (%d writes); it should wait out the interval", got)
	}
	next, _ = next.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	next.View()
	testwait.Eventually(t, func() bool { return strings.Contains(out.last(), "key j") }, 5*time.Second,
		"the key's view drawn without waiting an hour")
	if !strings.Contains(out.last(), "event") {
		t.Errorf("the key's frame lost the line the stream changed: %q", out.last())
	}
	next, _ = next.Update(tickMsg{})
	next.View()
	time.Sleep(20 * time.Millisecond) // give a wrong drawer the chance to draw
	if got := len(out.list()); got != 2 {
		t.Errorf("after the key's frame, a stream's view drew at once (%d writes); the cap holds again", got)
	}
}

// TestInputLeavesTheCapWhole: a key's view set while the drawer waits for
// nothing is drawn at once, and leaves nothing behind that would let the
// next view from the stream skip the cap.
func TestInputLeavesTheCapWhole(t *testing.T) {
	s, out := firstDrawn(t, 1, time.Hour)
	s.SetNow(view("key"))
	testwait.Eventually(t, func() bool { return strings.Contains(out.last(), "key") }, 5*time.Second,
		"a key's view drawn at once")
	s.Set(view("stream"))
	time.Sleep(20 * time.Millisecond) // give a wrong drawer the chance to draw
	if got := len(out.list()); got != 2 {
		t.Errorf("the stream's view after a key's drew at once (%d writes, want 2); the cap holds again", got)
	}
}

// firstDrawn starts a screen of the given height and frame cap and waits
// until its first view, "first", is drawn: a frame has just been written.
func firstDrawn(t *testing.T, height int, interval time.Duration) (*Screen, *writes) {
	t.Helper()
	out := &writes{}
	s := New(out, 20, height, interval, colorprofile.TrueColor)
	s.Start()
	t.Cleanup(s.Stop)
	s.Set(view("first"))
	testwait.Eventually(t, func() bool { return strings.Contains(out.last(), "first") }, 5*time.Second,
		"the first view drawn at once")
	return s, out
}

type tickMsg struct{}

// lines is a model whose view is the stream's line and the last key.
type lines struct{ text, key string }

func (l *lines) Init() tea.Cmd { return nil }
func (l *lines) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		l.key = "key " + msg.String()
	case tickMsg:
		l.text += "."
	}
	return l, nil
}
func (l *lines) View() tea.View { return view(l.text, l.key) }

func TestSetReturnsWhileTheTerminalIsSlow(t *testing.T) {
	slow := &blocking{release: make(chan struct{})}
	s := New(slow, 20, 1, 0, colorprofile.TrueColor)
	s.Start()
	s.Set(view("one"))
	done := make(chan struct{})
	go func() {
		for i := range 100 {
			s.Set(view(strings.Repeat("z", i%10)))
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(testwait.Scale(5 * time.Second)):
		t.Fatal("Set waited for the terminal")
	}
	close(slow.release)
	s.Stop()
}

type blocking struct {
	release chan struct{}
	buf     bytes.Buffer
}

func (b *blocking) Write(p []byte) (int, error) {
	<-b.release
	return b.buf.Write(p)
}

// TestSetLinesIsSet: a view handed as lines is drawn as the same view
// handed whole, and the same lines again draw nothing.
func TestSetLinesIsSet(t *testing.T) {
	whole, byLines := &writes{}, &writes{}
	a := New(whole, 20, 3, 0, colorprofile.TrueColor)
	b := New(byLines, 20, 3, 0, colorprofile.TrueColor)
	v := tea.NewView("")
	v.WindowTitle = "octop"
	for _, lines := range [][]string{{"alpha", "beta"}, {"alpha", "gamma", "delta"}, {"x"}} {
		v.Content = strings.Join(lines, "\n")
		a.Set(v)
		a.Draw()
		b.SetLines(lines, v, false)
		b.Draw()
		if got, want := byLines.last(), whole.last(); got != want {
			t.Fatalf("lines %q drew %q, the whole view %q", lines, got, want)
		}
	}
	n := len(byLines.list())
	b.SetLines([]string{"x"}, v, false)
	b.Draw()
	if len(byLines.list()) != n {
		t.Fatalf("the same lines again were drawn: %q", byLines.last())
	}
}
