package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/internal/feed"
	"github.com/octop-dev/octop/internal/renderer"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui"
)

// terminalOutput is what the program wrote, safe for its renderer's
// goroutine and the test's.
type terminalOutput struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (o *terminalOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.Write(p)
}

// text is everything written so far without escape codes: a word drawn in
// any frame is in it.
func (o *terminalOutput) text() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return ansi.Strip(o.buf.String())
}

// TestFrameCapShowsAShortLivedChild runs the screen as octop does (the
// frame cap of package renderer, events through the Batcher) and starts and ends a child
// within one frame: the frame after it must still show the child, ended.
// The cap may skip the frames in between, never the session.
func TestFrameCapShowsAShortLivedChild(t *testing.T) {
	out := &terminalOutput{}
	p := renderer.NewProgram(ui.New(ui.Options{ServerURL: "http://127.0.0.1:4096", NoColor: true}), renderer.Options{
		Interval: frameInterval, Frames: out, Width: 120, Height: 30, NoInput: true,
		Environ: []string{"TERM=xterm-256color"}, Extra: []tea.ProgramOption{tea.WithoutSignalHandler()}})
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	t.Cleanup(func() {
		p.Quit()
		if err := <-done; err != nil {
			t.Errorf("program: %v", err)
		}
	})
	b := feed.NewBatcher(p.Send, feed.FrameInterval)
	stream := func(evs ...wire.Event) {
		for _, e := range evs {
			b.Send(wire.Envelope{Event: e})
		}
	}
	const ms = 1_800_000_000_000
	b.Send(wire.ConnState{State: wire.Connected, Attempt: 1})
	stream(session("ses_root", "", "rootwork", ms), status("ses_root", wire.StatusBusy))
	testwait.Eventually(t, func() bool { return strings.Contains(out.text(), "rootwork") }, 10*time.Second,
		"the root on screen")

	// The whole life of a child in one burst: well within a 33 ms frame.
	stream(session("ses_kid", "ses_root", "quickchild", ms+10), status("ses_kid", wire.StatusBusy),
		bashCall("ses_kid", wire.ToolRunning), bashCall("ses_kid", wire.ToolCompleted), status("ses_kid", wire.StatusIdle))
	testwait.Eventually(t, func() bool { return strings.Contains(out.text(), "quickchild") }, 10*time.Second,
		"the short-lived child on screen")
}

func session(id, parent, title string, at int64) wire.Event {
	return wire.SessionCreated{Info: wire.Session{ID: id, ParentID: parent, Title: title, Version: "1.18.33",
		Time: wire.SessionTime{Created: at, Updated: at}}}
}

func status(id, s string) wire.Event {
	return wire.SessionStatusChanged{SessionID: id, Status: wire.SessionStatus{Type: s}}
}

func bashCall(sess, state string) wire.Event {
	ts := &wire.ToolState{Status: state, Title: "ls", Input: json.RawMessage(`{"command":"ls"}`),
		Time: wire.ToolTime{Start: 1_800_000_000_020}}
	if state == wire.ToolCompleted {
		ts.Time.End = 1_800_000_000_030
	}
	return wire.PartUpdated{Part: wire.Part{ID: "prt_1", SessionID: sess, MessageID: "msg_1", Type: wire.PartTool,
		Tool: "bash", CallID: "call_1", State: ts}}
}
