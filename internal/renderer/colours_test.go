package renderer

import (
	"bytes"
	"fmt"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// styledFrame is a frame as the screen writes one: synchronized output,
// cursor moves, erased lines, text in true colour, 256 and 16 colours,
// bold and underline, wide characters, a reset per line, the title.
func styledFrame() []byte {
	var b bytes.Buffer
	b.WriteString(ansi.SetModeSynchronizedOutput + ansi.SetWindowTitle("octop — http://127.0.0.1:4096"))
	styles := []lipgloss.Style{
		lipgloss.NewStyle().Foreground(lipgloss.Color("#ff8800")).Bold(true),
		lipgloss.NewStyle().Foreground(lipgloss.Color("212")).Background(lipgloss.Color("#1e1e2e")),
		lipgloss.NewStyle().Foreground(lipgloss.Color("3")).Underline(true).Faint(true),
		lipgloss.NewStyle().Background(lipgloss.Color("#00ff00")).Italic(true),
	}
	for y := range 30 {
		b.WriteString(ansi.CursorPosition(1, y+1) + ansi.EraseEntireLine)
		for i, st := range styles {
			fmt.Fprint(&b, st.Render(fmt.Sprintf("row %d 世界 ⏵ ✓ [%d]", y, i)), " ")
		}
		b.WriteString(ansi.ResetStyle)
	}
	b.WriteString("\x1b[m" + ansi.ResetModeSynchronizedOutput)
	return b.Bytes()
}

// TestColoursAsTheWriterDoes: each profile's frame is byte for byte what
// colorprofile.Writer makes of it, the first time and from the cache.
func TestColoursAsTheWriterDoes(t *testing.T) {
	frame := styledFrame()
	for _, p := range []colorprofile.Profile{colorprofile.ANSI256, colorprofile.ANSI, colorprofile.ASCII, colorprofile.NoTTY} {
		var want bytes.Buffer
		w := colorprofile.Writer{Forward: &want, Profile: p}
		if _, err := w.Write(frame); err != nil {
			t.Fatal(err)
		}
		c := newColours(p)
		for pass := range 2 {
			if got := c.convert(frame); !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("profile %v, pass %d: differs from the Writer's\ngot  %q\nwant %q", p, pass, got, want.Bytes())
			}
		}
		if p > colorprofile.NoTTY && len(c.seen) == 0 {
			t.Errorf("profile %v: no style was kept to reuse", p)
		}
	}
}

// TestColoursForgetPastTheBound: more distinct styles than maxStyles
// are still converted, and the cache stays bounded.
func TestColoursForgetPastTheBound(t *testing.T) {
	c := newColours(colorprofile.ANSI256)
	for i := range maxStyles + 10 {
		seq := fmt.Sprintf("\x1b[38;2;%d;%d;%dm", i%256, i/256, 7)
		var want bytes.Buffer
		w := colorprofile.Writer{Forward: &want, Profile: colorprofile.ANSI256}
		_, _ = w.Write([]byte(seq))
		if got := c.convert([]byte(seq)); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%q: %q, want %q", seq, got, want.Bytes())
		}
	}
	if len(c.seen) > maxStyles {
		t.Fatalf("%d styles kept, more than %d", len(c.seen), maxStyles)
	}
}

// BenchmarkColours brings a 30-line styled frame down to 256 colours:
// the Writer over the whole frame, and colours.
func BenchmarkColours(b *testing.B) {
	frame := styledFrame()
	b.Run("writer", func(b *testing.B) {
		var out bytes.Buffer
		for b.Loop() {
			out.Reset()
			w := colorprofile.Writer{Forward: &out, Profile: colorprofile.ANSI256}
			_, _ = w.Write(frame)
		}
	})
	b.Run("colours", func(b *testing.B) {
		c := newColours(colorprofile.ANSI256)
		for b.Loop() {
			_ = c.convert(frame)
		}
	})
}
