package renderer

import (
	"io"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
)

// Options configure a Program.
type Options struct {
	// In and Out are the terminal; nil means os.Stdin and os.Stdout.
	In, Out *os.File
	// Frames, when set, is where frames are written instead of Out (the
	// latency trace wraps Out so); unset, they go to RawOutput(Out).
	// Out is still the terminal whose size and colours are read.
	Frames io.Writer
	// Interval is the frame cap: at most one frame per Interval.
	Interval time.Duration
	// Environ is the environment (TERM, NO_COLOR, OCTOP_RENDERER); nil
	// means os.Environ().
	Environ []string
	// Extra are more options for the Bubble Tea program.
	Extra []tea.ProgramOption
	// Width and Height, when set, are the size instead of Out's (tests);
	// NoInput reads no keys and leaves the input's mode alone.
	Width, Height int
	NoInput       bool
}

// Renderer is the environment variable that picks Bubble Tea's own
// renderer (OCTOP_RENDERER=bubbletea) instead of the Screen.
const Renderer = "OCTOP_RENDERER"

// queryFPS is how often, with the Screen drawing, Bubble Tea's loop writes
// what it queued for the terminal (its queries, such as the background
// colour's). It draws nothing, so it runs as slow as Bubble Tea lets it:
// its ticks are wake-ups.
// The start asks for the background colour itself (enter), so the first
// frames have the right colours without waiting for it.
const queryFPS = 1

// Program is a Bubble Tea program whose frames a Screen draws.
type Program struct {
	*tea.Program
	screen    *Screen // nil with Bubble Tea's renderer
	opts      Options
	stopInput func() // ends the keys' reader (RawInput)
}

// NewProgram makes the program of m. Send to it before Run is safe, as
// with tea.Program.
func NewProgram(m tea.Model, o Options) *Program {
	if o.In == nil {
		o.In = os.Stdin
	}
	if o.Out == nil {
		o.Out = os.Stdout
	}
	if o.Environ == nil {
		o.Environ = os.Environ()
	}
	frames := o.Frames
	w, h, err := o.Width, o.Height, error(nil)
	if w <= 0 {
		w, h, err = term.GetSize(o.Out.Fd())
	}
	in := tea.WithInput(o.In)
	if o.NoInput {
		in = tea.WithInput(nil)
	}
	if err != nil || getenv(o.Environ, Renderer) == "bubbletea" {
		// Not a terminal (its size unknown), or asked for: Bubble Tea
		// draws, as it does.
		if frames == nil {
			frames = o.Out
		}
		opts := append([]tea.ProgramOption{tea.WithFPS(int(time.Second / o.Interval)),
			in, tea.WithOutput(frames), tea.WithEnvironment(o.Environ)}, o.Extra...)
		return &Program{Program: tea.NewProgram(m, opts...), opts: o}
	}
	if frames == nil {
		frames = RawOutput(o.Out)
	}
	s := New(frames, w, h, o.Interval, colorprofile.Detect(o.Out, o.Environ))
	stop := func() {}
	if !o.NoInput {
		var r io.Reader
		r, stop = RawInput(o.In)
		in = tea.WithInput(r)
	}
	opts := append([]tea.ProgramOption{tea.WithoutRenderer(), tea.WithFPS(queryFPS),
		in, tea.WithOutput(o.Out), tea.WithEnvironment(o.Environ),
		tea.WithWindowSize(w, h)}, o.Extra...)
	return &Program{Program: tea.NewProgram(drawn{inner: m, screen: s}, opts...), screen: s, opts: o, stopInput: stop}
}

// Run runs the program until it quits, and leaves the terminal as it
// found it.
func (p *Program) Run() (tea.Model, error) {
	if p.screen == nil {
		return p.Program.Run()
	}
	if in := p.opts.In.Fd(); !p.opts.NoInput && term.IsTerminal(in) {
		old, err := term.MakeRaw(in)
		if err != nil {
			return nil, err
		}
		defer func() { _ = term.Restore(in, old) }()
	}
	_, _ = io.WriteString(p.screen.out, enter(!p.opts.NoInput))
	defer func() { _, _ = io.WriteString(p.screen.out, leave()) }()

	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	defer signal.Stop(winch)
	done := make(chan struct{})
	defer close(done)
	go p.resizes(winch, done)

	p.screen.Start()
	defer p.screen.Stop()
	defer p.stopInput()
	m, err := p.Program.Run()
	if d, ok := m.(drawn); ok {
		m = d.inner
	}
	return m, err
}

// resizes tells the screen and the program each new size of the terminal.
func (p *Program) resizes(winch <-chan os.Signal, done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		case <-winch:
		}
		w, h, err := term.GetSize(p.opts.Out.Fd())
		if err != nil {
			continue
		}
		p.screen.Resize(w, h)
		p.Send(tea.WindowSizeMsg{Width: w, Height: h})
	}
}

// enter and leave set the terminal up for the screen and back: the
// alternate screen, no cursor, no autowrap (a line too long is cut at the
// margin), bracketed paste, and the keyboard reporting Bubble Tea's
// renderer asks for (modifyOtherKeys, kitty's disambiguated keys).
func enter(input bool) string {
	s := ansi.SetModeAltScreenSaveCursor + ansi.HideCursor + ansi.ResetModeAutoWrap +
		ansi.SetModeBracketedPaste + ansi.SetModifyOtherKeys2 + ansi.PushKittyKeyboard(1) + ansi.EraseEntireScreen
	if input {
		// Only a program that reads the answer asks: else it would
		// reach the shell after the program ends.
		s += ansi.RequestBackgroundColor
	}
	return s
}

func leave() string {
	return mouseOff + ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1) + ansi.ResetModeBracketedPaste +
		ansi.SetModeAutoWrap + ansi.ShowCursor + ansi.ResetStyle + ansi.ResetModeAltScreenSaveCursor
}

// drawn is the program's model: the inner one, whose every view it hands
// to the screen instead of returning it to Bubble Tea, which draws none.
type drawn struct {
	inner  tea.Model
	screen *Screen
	input  bool // the last message was a key press, a click or a paste
}

func (d drawn) Init() tea.Cmd { return d.inner.Init() }

func (d drawn) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := d.inner.Update(msg)
	d.inner = next
	switch msg.(type) {
	case tea.KeyPressMsg, tea.MouseClickMsg, tea.MouseWheelMsg, tea.PasteMsg:
		d.input = true
	default:
		d.input = false
	}
	return d, cmd
}

// Lined is a model whose view can come as the screen's lines (ui.Model):
// the Screen takes them as they are, and a line that is the very string
// of the last frame's costs nothing to compare; v is the view but its
// Content.
type Lined interface {
	ViewLines() (lines []string, v tea.View)
}

// View hands the inner view to the screen: at once when it answers input,
// else within the frame cap.
func (d drawn) View() tea.View {
	if l, ok := d.inner.(Lined); ok {
		lines, v := l.ViewLines()
		d.screen.SetLines(lines, v, d.input)
		return tea.View{}
	}
	if d.input {
		d.screen.SetNow(d.inner.View())
	} else {
		d.screen.Set(d.inner.View())
	}
	return tea.View{}
}

// getenv is environ's value of key.
func getenv(environ []string, key string) string {
	if i := slices.IndexFunc(environ, func(kv string) bool {
		return len(kv) > len(key) && kv[len(key)] == '=' && kv[:len(key)] == key
	}); i >= 0 {
		return environ[i][len(key)+1:]
	}
	return ""
}
