package ui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	linescreen "github.com/octop-dev/octop/internal/renderer"
	"github.com/octop-dev/octop/internal/wire"
)

// liveFanOut is bench-live's tree: one root and k busy children, each with
// steps bash calls, the last one running.
func liveFanOut(k, steps int) EventsMsg {
	evs := []wire.Event{created("ses_root", "", "benchlive fan-out", 0), busy("ses_root")}
	for c := range k {
		kid := fmt.Sprintf("ses_kid%d", c)
		evs = append(evs, created(kid, "ses_root", fmt.Sprintf("worker %d (@general subagent)", c+1), 1), busy(kid),
			asstMsg(kid, 100, 0.001, 2))
		for s := range steps {
			end := float64(3 + s)
			if s == steps-1 {
				end = -1
			}
			evs = append(evs, toolCall(kid, fmt.Sprintf("%s_p%02d", kid, s), "bash", wire.ToolCompleted,
				fmt.Sprintf("step %d", s+1), fmt.Sprintf(`{"command":"sleep 0.5; echo step %d"}`, s+1), float64(2+s), end))
		}
	}
	return events(evs...)
}

// terminal is what Bubble Tea's renderer does with a frame: parse the
// styled string into cells, diff them against the last frame and write
// the difference. Its cost grows with the screen, not with what changed.
type terminal struct {
	out bytes.Buffer
	buf uv.ScreenBuffer
	scr *uv.TerminalRenderer
}

func newTerminal(w, h int) *terminal {
	t := &terminal{buf: uv.NewScreenBuffer(w, h)}
	t.scr = uv.NewTerminalRenderer(&t.out, []string{"TERM=xterm-256color"})
	t.scr.Resize(w, h)
	return t
}

func (t *terminal) draw(content string) int {
	t.out.Reset()
	t.buf.Clear()
	uv.NewStyledString(content).Draw(t.buf, t.buf.Bounds())
	t.scr.Render(t.buf.RenderBuffer)
	_ = t.scr.Flush()
	return t.out.Len()
}

// lineScreen is octop's own renderer (package renderer): a line diff.
type lineScreen struct {
	out bytes.Buffer
	scr *linescreen.Screen
}

func newLineScreen(w, h int) *lineScreen {
	l := &lineScreen{}
	l.scr = linescreen.New(&l.out, w, h, 0, colorprofile.TrueColor)
	return l
}

func (l *lineScreen) draw(lines []string) int {
	l.out.Reset()
	l.scr.SetLines(lines, tea.View{}, false)
	l.scr.Draw()
	return l.out.Len()
}

// BenchmarkFrame is one frame of bench-live's screen (200x50, a fan-out
// of 8 children): after a tick (spinners and clocks move), and after one
// tool update; each is Update, View and the terminal's parse, diff and
// write, by Bubble Tea's renderer (bubbletea) and by octop's (screen).
// bytes/frame is what reaches the terminal.
func BenchmarkFrame(b *testing.B) {
	for _, what := range []string{"tick/bubbletea", "event/bubbletea", "tick/screen", "event/screen"} {
		b.Run(what, func(b *testing.B) {
			clock := now
			m := New(Options{ServerURL: "http://127.0.0.1:4096", Clock: func() time.Time { return clock }})
			m = send(b, m, tea.WindowSizeMsg{Width: 200, Height: 50})
			m = send(b, m, liveFanOut(8, 10))
			// octop's renderer takes the screen's lines (Model.ViewLines);
			// Bubble Tea's, the content whole.
			var draw func(Model) int
			if strings.HasSuffix(what, "screen") {
				scr := newLineScreen(200, 50)
				draw = func(m Model) int {
					lines, _ := m.ViewLines()
					return scr.draw(lines)
				}
			} else {
				term := newTerminal(200, 50)
				draw = func(m Model) int { return term.draw(m.View().Content) }
			}
			draw(m)
			written := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				var msg tea.Msg = tickMsg{}
				if strings.HasPrefix(what, "event") {
					kid := fmt.Sprintf("ses_kid%d", i%8)
					msg = events(toolCall(kid, fmt.Sprintf("%s_p%02d", kid, 10+i%50), "bash", wire.ToolRunning,
						fmt.Sprintf("step %d", i), `{"command":"x"}`, 50, -1))
				} else {
					clock = clock.Add(time.Second) // a tick comes once a second, on the second
				}
				nm, _ := m.Update(msg)
				m = nm.(Model)
				written += draw(m)
			}
			b.ReportMetric(float64(written)/float64(b.N), "bytes/frame")
		})
	}
}
