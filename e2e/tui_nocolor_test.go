package e2e

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/colourtest"
)

// TestTUINoColorDemo runs the real binary under NO_COLOR in a real
// terminal (the demo: no server needed) and opens every room the demo
// can: not one frame tmux holds carries a colour escape.
func TestTUINoColorDemo(t *testing.T) {
	parallel(t)
	tm := &tuiTerm{t: t, tmux: tuiRequireTmux(t), socket: fmt.Sprintf("octop-e2e-nc-%d-%d", os.Getpid(), time.Now().UnixNano())}
	if out, err := tm.run("new-session", "-d", "-s", "octop", "-x", "120", "-y", "36",
		"env TERM=xterm-256color COLORTERM=truecolor NO_COLOR=1 "+tuiOctopBinary(t)+" --demo"); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last screen:\n%s", tm.last)
		}
		_, _ = tm.run("kill-server")
	})
	// check reads the pane with its escapes and fails on a colour one.
	check := func(what string) {
		t.Helper()
		out, err := tm.run("capture-pane", "-p", "-e", "-t", "octop")
		if err != nil {
			t.Fatalf("tmux capture-pane -e: %v\n%s", err, out)
		}
		if e := colourtest.Escape(out); e != "" {
			t.Fatalf("%s: a colour escape %s under NO_COLOR:\n%q", what, e, out)
		}
	}
	tm.waitFor("the demo's tree", func(sc string) bool { return strings.Contains(sc, "refactor the config loader") })
	check("the tree")
	for _, room := range []struct{ key, what, shows string }{
		{"o", "the result", "Result of"},
		{"t", "the transcript", "transcript"},
		{"T", "the timeline", "timeline"},
		{"i", "the inbox", "Inbox"},
		{"?", "the help", "abort subtree"},
	} {
		tm.actSend(room.key)
		tm.waitFor(room.what, func(sc string) bool { return strings.Contains(sc, room.shows) })
		check(room.what)
		tm.actSend("Escape")
		tm.waitFor(room.what+" closed", func(sc string) bool { return !strings.Contains(sc, room.shows) })
	}
	tm.actSend("n")
	tm.waitFor("the read-only notice", func(sc string) bool { return strings.Contains(sc, "demo: read-only") })
	check("the read-only notice")
	tm.actSend("tab")
	check("the detail focused")
	tm.actSend("/")
	tm.actType("survey")
	tm.waitFor("the filter typed", func(sc string) bool { return strings.Contains(sc, "/survey") })
	check("the filter typed")
}
