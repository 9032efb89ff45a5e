package alert

import (
	"fmt"
	"strings"

	"github.com/octop-dev/octop/internal/sanitize"
)

// Mode says how the terminal is called: --notify none|bell|osc|all.
type Mode int

// Notification modes.
const (
	None Mode = iota
	Bell      // BEL only
	OSC       // OSC 9 (and OSC 777 where the terminal wants it) only
	All       // both
)

// ParseMode reads --notify's value.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "none", "off":
		return None, nil
	case "bell":
		return Bell, nil
	case "osc":
		return OSC, nil
	case "all", "":
		return All, nil
	}
	return None, fmt.Errorf("--notify takes none, bell, osc or all, not %q", s)
}

// Sequence is what to write to the terminal to notify the person of
// title and body, for a terminal described by getenv (TERM, TERM_PROGRAM,
// VTE_VERSION, TMUX). OSC 9 is understood by iTerm2, kitty, WezTerm,
// Ghostty, Windows Terminal; OSC 777 is added for those that want it
// (VTE terminals, rxvt, foot, WezTerm, Ghostty). Inside tmux the OSC
// sequences are wrapped for passthrough; the bell needs no wrapping.
func Sequence(m Mode, title, body string, getenv func(string) string) string {
	var b strings.Builder
	if m == OSC || m == All {
		msg := clean(title + ": " + body)
		osc := "\x1b]9;" + msg + "\x07"
		if wants777(getenv) {
			osc += "\x1b]777;notify;" + strings.ReplaceAll(clean(title), ";", ",") + ";" + clean(body) + "\x07"
		}
		if getenv("TMUX") != "" {
			osc = passthrough(osc)
		}
		b.WriteString(osc)
	}
	if m == Bell || m == All {
		b.WriteString("\a")
	}
	return b.String()
}

func wants777(getenv func(string) string) bool {
	if getenv("VTE_VERSION") != "" {
		return true
	}
	term, prog := getenv("TERM"), strings.ToLower(getenv("TERM_PROGRAM"))
	return strings.Contains(term, "rxvt") || strings.HasPrefix(term, "foot") ||
		prog == "wezterm" || prog == "ghostty" || strings.Contains(term, "ghostty")
}

// passthrough wraps sequences so tmux (with allow-passthrough on) hands
// them to the outer terminal.
func passthrough(s string) string {
	return "\x1bPtmux;" + strings.ReplaceAll(s, "\x1b", "\x1b\x1b") + "\x1b\\"
}

// clean shows control characters as their pictures (sanitize.Line),
// since raw they would end or corrupt the sequence, and bounds the length.
func clean(s string) string {
	s = sanitize.Line(s)
	if r := []rune(s); len(r) > 200 {
		s = string(r[:199]) + "…"
	}
	return s
}
