package format

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// TestNarrowRunes: every rune narrow admits is one cell wide by
// ansi.StringWidth, alone and beside ASCII, itself and a style, so
// counting it is what StringWidth does.
func TestNarrowRunes(t *testing.T) {
	n := 0
	for r := rune(0x80); r < 0x3000; r++ {
		if !narrow(r) {
			continue
		}
		n++
		s := string(r)
		for _, c := range []struct {
			s    string
			want int
		}{{s, 1}, {"a" + s + "b", 3}, {s + s, 2}, {s + "\x1b[1m" + s + "\x1b[m", 2}, {" " + s, 2}, {s + " ", 2}} {
			if got := ansi.StringWidth(c.s); got != c.want {
				t.Errorf("U+%04X: ansi.StringWidth(%q) = %d, narrow counts %d", r, c.s, got, c.want)
			}
		}
	}
	if n < 1000 {
		t.Fatalf("narrow admits %d runes; the test would prove little", n)
	}
}

// TestWidthIsAnsis: Width agrees with ansi.StringWidth on octop's kinds
// of line and on random mixes of ASCII, narrow and wide characters,
// combining marks, emoji, styles and other escapes.
func TestWidthIsAnsis(t *testing.T) {
	pieces := []string{"a", "Z", " ", "~", "·", "…", "─", "│", "⠋", "✓", "✗", "→", "●", "▸", "⟩", "⚠", "×", "é",
		"\x1b[1m", "\x1b[38;2;255;136;0m", "\x1b[m", "\x1b[48;5;212;4m", "\x1b[?2026h",
		"日", "🔔", "e\u0301", "\u0301", "\u200d", "\ufe0f", "\t", "\x1b]0;t\x07", "\x1b(B", "\x1b", "\x1b[", "\x7f", "\u00ad", "\U0001F1FA\U0001F1F8"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Fatalf("Width(%q) = %d, ansi.StringWidth = %d", s, got, want)
		}
	}
}

// FuzzWidth: Width is ansi.StringWidth for any valid UTF-8.
func FuzzWidth(f *testing.F) {
	f.Add("\x1b[1mtitle\x1b[m · 12s ⠋ ✓")
	f.Add("a\u0301b")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Fatalf("Width(%q) = %d, ansi.StringWidth = %d", s, got, want)
		}
	})
}

// BenchmarkWidth measures a styled row of the tree: ansi.StringWidth
// and Width.
func BenchmarkWidth(b *testing.B) {
	row := "\x1b[38;2;255;136;0m⠋\x1b[m \x1b[1mworker 3 (@general subagent)\x1b[m \x1b[2m· 12s · 4 calls · $0.0123 · bash sleep 0.5; echo step 4\x1b[m"
	b.Run("ansi", func(b *testing.B) {
		for b.Loop() {
			_ = ansi.StringWidth(row)
		}
	})
	b.Run("format", func(b *testing.B) {
		for b.Loop() {
			_ = Width(row)
		}
	})
}
