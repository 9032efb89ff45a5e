package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/internal/config"
	"github.com/octop-dev/octop/internal/record"
	"github.com/octop-dev/octop/internal/renderer"
	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// TestRecordSeveralThenReplay: octop --server A --server B --record F
// writes both servers into one file as the screen of several servers
// runs; --replay F shows them again as two groups of one tree, each
// with its sessions and their end states as they were live.
func TestRecordSeveralThenReplay(t *testing.T) {
	a, b, bURL := twoServers(t)
	path := filepath.Join(t.TempDir(), "two.octop")
	s := &several{g: severalFlags(t, "--server", a.URL(), "--server", bURL, "--record", path, "--notify", "none")}
	progs := make(chan *renderer.Program, 1)
	s.started = func(p *renderer.Program) { progs <- p }
	done := make(chan int, 1)
	var stderr bytes.Buffer
	go func() {
		o := screenOptions()
		o.Frames, o.Width, o.Height, o.NoInput = io.Discard, 160, 30, true
		o.Extra = []tea.ProgramOption{tea.WithoutSignalHandler()}
		done <- s.run(&stderr, o)
	}()
	p := <-progs
	testwait.Eventually(t, func() bool { return a.Streams() > 0 && b.Streams() > 0 }, 10*time.Second, "both streams open")
	a.Emit("session.idle", map[string]string{"sessionID": "ses_a"})
	testwait.Eventually(t, func() bool { return recorded(path, a.URL(), "session.idle") && recorded(path, b.URL(), "ses_b") },
		10*time.Second, "both servers' sessions and a's event in the recording")
	p.Quit()
	if code := <-done; code != 0 || stderr.Len() > 0 {
		t.Fatalf("live screen: exit %d, stderr %q", code, stderr.String())
	}
	if raw, _ := os.ReadFile(path); bytes.Contains(raw, []byte("s3cret")) {
		t.Fatal("the recording holds b's password")
	}

	rec := readRecording(t, path)
	if got := rec.Servers(); len(got) != 2 || got[0] != a.URL() || got[1] != b.URL() {
		t.Fatalf("recorded servers %v, want %s and %s", got, a.URL(), b.URL())
	}
	r, err := newSeveralReplay(replaySource{src: rec.Source(), label: "replay", source: "replay two.octop", truncated: rec.Truncated}, record.Options{Speed: 32})
	if err != nil {
		t.Fatal(err)
	}
	aHost, bHost := strings.TrimPrefix(a.URL(), "http://"), strings.TrimPrefix(b.URL(), "http://")
	pump(t, r.screen, r.run, func(screen string) bool {
		return strings.Contains(screen, "▾ 1 "+aHost+"  OpenCode") && strings.Contains(screen, "▾ 2 "+bHost+"  OpenCode") &&
			strings.Contains(screen, "on a") && strings.Contains(screen, "on b") &&
			strings.Contains(screen, "1 "+aHost+" 1.18.33 ● 0 running") && strings.Contains(screen, "2 "+bHost+" 1.1.65 ● 1 running") &&
			strings.Contains(screen, "octop  replay two.octop  ") && strings.Contains(screen, "■ ended")
	})
}

// severalFlags parses args as octop's screen flags, over an empty config.
func severalFlags(t *testing.T, args ...string) globalFlags {
	t.Helper()
	var g globalFlags
	fs := pflag.NewFlagSet("octop", pflag.ContinueOnError)
	g.conn.register(fs)
	g.register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	g.conn.cfg = cfg
	return g
}

// recorded says the recording at path, as far as written, holds an
// entry from server whose data contains what.
func recorded(path, server, what string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	rec, err := record.Read(f)
	if err != nil {
		return false
	}
	for _, e := range rec.Of(server).Entries {
		if bytes.Contains(e.Data, []byte(what)) {
			return true
		}
	}
	return false
}

func readRecording(t *testing.T, path string) record.Recording {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := record.Read(f)
	if err != nil || rec.Truncated {
		t.Fatalf("reading the recording: %v (truncated %v)", err, rec.Truncated)
	}
	return rec
}

// pump runs m as a program would, with no terminal: what start sends
// (the players' or streams' messages) and the commands' replies go
// through Update until the screen (without escapes) satisfies cond.
func pump(t *testing.T, m tea.Model, start func(context.Context, func(tea.Msg)), cond func(string) bool) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	msgs := make(chan tea.Msg, 4096)
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() {
			switch m := c().(type) {
			case nil:
			case tea.BatchMsg:
				for _, c := range m {
					run(c)
				}
			default:
				select {
				case msgs <- m:
				case <-ctx.Done():
				}
			}
		}()
	}
	m, cmd := m.Update(tea.WindowSizeMsg{Width: 160, Height: 30})
	run(cmd)
	run(m.Init())
	start(ctx, func(v tea.Msg) {
		select {
		case msgs <- v:
		case <-ctx.Done():
		}
	})
	deadline := time.After(testwait.Scale(20 * time.Second))
	for {
		if screen := ansi.Strip(m.View().Content); cond(screen) {
			return
		}
		select {
		case msg := <-msgs:
			m, cmd = m.Update(msg)
			run(cmd)
		case <-deadline:
			t.Fatalf("the screen never showed it:\n%s", ansi.Strip(m.View().Content))
		}
	}
}
