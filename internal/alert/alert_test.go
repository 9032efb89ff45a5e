package alert

import (
	"strings"
	"testing"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestSequence(t *testing.T) {
	cases := []struct {
		name string
		mode Mode
		env  func(string) string
		want string
	}{
		{"none", None, env(), ""},
		{"bell", Bell, env(), "\a"},
		{"osc", OSC, env("TERM", "xterm-256color"), "\x1b]9;octop: done: fix\x07"},
		{"all", All, env(), "\x1b]9;octop: done: fix\x07\a"},
		{"vte wants 777", OSC, env("VTE_VERSION", "7600"), "\x1b]9;octop: done: fix\x07\x1b]777;notify;octop;done: fix\x07"},
		{"wezterm wants 777", OSC, env("TERM_PROGRAM", "WezTerm"), "\x1b]9;octop: done: fix\x07\x1b]777;notify;octop;done: fix\x07"},
		{"tmux wraps the OSC, not the bell", All, env("TMUX", "/tmp/x,1,0"), "\x1bPtmux;\x1b\x1b]9;octop: done: fix\x07\x1b\\\a"},
	}
	for _, c := range cases {
		if got := Sequence(c.mode, "octop", "done: fix", c.env); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	if got := Sequence(OSC, "octop", "evil\x07\x1b]0;title", env()); strings.Count(got, "\x07") != 1 || strings.Count(got, "\x1b") != 1 {
		t.Errorf("control characters leaked: %q", got)
	}
	// C1 and bidi controls are shown, not sent: one would open a sequence
	// of its own, the other turn the notification around.
	if got := Sequence(OSC, "octop", "evil\u009d0;x\u202eflip", env()); got != "\x1b]9;octop: evil\uFFFD0;x\uFFFDflip\x07" {
		t.Errorf("C1 or bidi control leaked: %q", got)
	}
}

func TestParseMode(t *testing.T) {
	for s, want := range map[string]Mode{"none": None, "bell": Bell, "osc": OSC, "all": All, "ALL": All} {
		if m, err := ParseMode(s); err != nil || m != want {
			t.Errorf("%q: %v %v", s, m, err)
		}
	}
	if _, err := ParseMode("loud"); err == nil || err.Error() != `--notify takes none, bell, osc or all, not "loud"` {
		t.Errorf("bad mode: %v", err)
	}
}

// collect gathers hook results until n have come, or fails at a deadline.
