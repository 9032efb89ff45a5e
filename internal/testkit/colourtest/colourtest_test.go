package colourtest

import "testing"

func TestEscape(t *testing.T) {
	for s, want := range map[string]bool{
		"plain": false, "\x1b[1mbold\x1b[0m": false, "\x1b[2;3;4;7m": false, "\x1b[39;49m": false, "\x1b[m": false,
		"\x1b[31mred": true, "\x1b[1;38;5;196m": true, "\x1b[48;2;1;2;3m": true, "\x1b[94m": true,
		"\x1b[4;58:5:3m": true, "\x1b[0m\x1b[7m\x1b[32m": true, "\x1b[2;31m": true,
	} {
		if got := Escape(s) != ""; got != want {
			t.Errorf("Escape(%q) found colour %v, want %v", s, got, want)
		}
	}
}
