package e2e

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestScreenInARealTerminal runs octop's own renderer (package renderer) in
// tmux, from a shell: the demo draws, a resize lays it out again at the
// new size, and quitting gives the shell back as it was: the terminal's
// modes (stty), line wrap on, the text from before the alternate screen.
func TestScreenInARealTerminal(t *testing.T) {
	parallel(t)
	tm := &tuiTerm{t: t, tmux: tuiRequireTmux(t), socket: fmt.Sprintf("octop-screen-%d-%d", os.Getpid(), time.Now().UnixNano())}
	if out, err := tm.run("new-session", "-d", "-s", "octop", "-x", "160", "-y", "40",
		"env TERM=xterm-256color PS1='$ ' bash --norc --noprofile"); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last screen:\n%s", tm.last)
		}
		_, _ = tm.run("kill-server")
	})
	line := fmt.Sprintf(`echo before-octop; s=$(stty -g); %s --demo; rc=$?; [ "$s" = "$(stty -g)" ] && echo "modes kept, rc=$rc" || echo "modes CHANGED, rc=$rc"`,
		tuiOctopBinary(t))
	tm.actType(line)
	tm.actSend("Enter")
	tm.waitFor("the demo drawn", func(sc string) bool {
		return strings.Contains(sc, "refactor the config loader") && strings.Contains(sc, "│") && !strings.Contains(sc, "before-octop")
	})

	if out, err := tm.run("resize-window", "-t", "octop", "-x", "90", "-y", "25"); err != nil {
		t.Fatalf("tmux resize-window: %v\n%s", err, out)
	}
	tm.waitFor("the narrow layout after the resize", func(sc string) bool {
		return strings.Contains(sc, "── detail") && strings.Contains(sc, "refactor the config loader") && !strings.Contains(sc, "│")
	})

	tm.actSend("q")
	sc := tm.waitFor("the shell back", func(sc string) bool { return strings.Contains(sc, "rc=0") })
	if !strings.Contains(sc, "modes kept, rc=0") {
		t.Errorf("the terminal's modes changed across octop, or it failed:\n%s", sc)
	}
	if !strings.Contains(sc, "before-octop") {
		t.Errorf("the text from before octop is gone: the alternate screen was not left:\n%s", sc)
	}
	// Line wrap is back on: 200 characters in a 90-column pane wrap onto
	// three rows instead of being cut at the edge.
	tm.actType("printf 'x%.0s' $(seq 200); echo")
	tm.actSend("Enter")
	tm.waitFor("a long line wrapped", func(sc string) bool {
		return strings.Count(sc, strings.Repeat("x", 90)) >= 2
	})
}
