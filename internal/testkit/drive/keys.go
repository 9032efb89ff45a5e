package drive

import (
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// named are the keys Key knows by name.
var named = map[string]rune{
	"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "backspace": tea.KeyBackspace,
	"delete": tea.KeyDelete, "space": tea.KeySpace, "up": tea.KeyUp, "down": tea.KeyDown,
	"left": tea.KeyLeft, "right": tea.KeyRight, "home": tea.KeyHome, "end": tea.KeyEnd,
	"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
}

// Key is the key press a name stands for, as a terminal would send it:
// "enter", "esc", "tab", "backspace", "delete", "space", the arrows
// ("up"…), "home", "end", "pgup", "pgdown"; "shift+tab"; "ctrl+" or
// "alt+" and a letter; or one character ("j", "N", "]", "2"), an upper
// case letter carrying shift. ok is false for any other name.
func Key(name string) (msg tea.KeyPressMsg, ok bool) {
	if name == "shift+tab" {
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, true
	}
	if code, ok := named[name]; ok {
		if code == tea.KeySpace {
			return tea.KeyPressMsg{Code: code, Text: " "}, true
		}
		return tea.KeyPressMsg{Code: code}, true
	}
	for prefix, mod := range map[string]tea.KeyMod{"ctrl+": tea.ModCtrl, "alt+": tea.ModAlt} {
		if rest, found := strings.CutPrefix(name, prefix); found && utf8.RuneCountInString(rest) == 1 {
			if k, ok := Key(rest); ok {
				k.Mod |= mod
				k.Text = "" // a chord types nothing
				return k, true
			}
		}
	}
	r, size := utf8.DecodeRuneInString(name)
	if r == utf8.RuneError || size != len(name) {
		return tea.KeyPressMsg{}, false
	}
	msg = tea.KeyPressMsg{Code: r, Text: name}
	if r >= 'A' && r <= 'Z' {
		msg.Code, msg.Mod = r+('a'-'A'), tea.ModShift
	}
	return msg, true
}
