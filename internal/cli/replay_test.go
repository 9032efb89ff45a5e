package cli

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/record"
	"github.com/octop-dev/octop/internal/wire"
)

// oneServerRecording is a recording of one server: a session made at
// its start and another span later.
func oneServerRecording(t *testing.T, span time.Duration) record.Recording {
	t.Helper()
	t0 := time.UnixMilli(1795286989756)
	var buf bytes.Buffer
	w, err := record.NewWriter(&buf, "test", 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Conn("http://127.0.0.1:4096", t0, wire.ConnState{State: wire.Connected, Attempt: 1})
	for i, at := range []time.Time{t0.Add(10 * time.Millisecond), t0.Add(span)} {
		id := []string{"ses_a", "ses_b"}[i]
		w.Event("http://127.0.0.1:4096", at, []byte(`{"type":"session.created","properties":{"info":{"id":"`+id+
			`","title":"task `+id+`","time":{"created":`+ms(at)+`,"updated":`+ms(at)+`}}}}`))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := record.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func ms(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }

// TestReplayHeaderSaysWhatPlays: with --replay FILE the header names the
// file, not "demo"; space makes it say paused, and the ? help lists the
// replay's keys.
func TestReplayHeaderSaysWhatPlays(t *testing.T) {
	rec := oneServerRecording(t, time.Hour)
	r, err := newReplay(replaySource{src: rec.Source(), label: "replay", source: "replay runs/fix.octop", truncated: rec.Truncated}, record.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var m tea.Model = r.screen
	m, _ = m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	head := func() string { return strings.SplitN(ansi.Strip(m.View().Content), "\n", 2)[0] }
	if h := head(); !strings.Contains(h, "octop  replay runs/fix.octop  ▶ replaying") || strings.Contains(h, "demo") {
		t.Errorf("the header says %q", h)
	}
	m, _ = m.Update(keyPress("?"))
	if sc := ansi.Strip(m.View().Content); !strings.Contains(sc, "play/pause") || !strings.Contains(sc, "faster") {
		t.Errorf("the ? help lacks the replay's keys:\n%s", sc)
	}
	m, _ = m.Update(keyPress("?"))
	m = feedCmd(m, keyPress(" "))
	if h := head(); !strings.Contains(h, "⏸ paused") {
		t.Errorf("after space the header says %q, want paused", h)
	}
	m = feedCmd(m, keyPress(" "))
	if h := head(); !strings.Contains(h, "▶ replaying") {
		t.Errorf("after space again the header says %q, want replaying", h)
	}
}

// TestReplayCutShortSaysSo: a recording cut short says so on the screen
// (the header and the first notice), and once played to its end the
// header says ended.
func TestReplayCutShortSaysSo(t *testing.T) {
	rec := oneServerRecording(t, 50*time.Millisecond)
	rec.Truncated = true
	r, err := newReplay(replaySource{src: rec.Source(), label: "replay", source: "replay crash.octop", truncated: rec.Truncated}, record.Options{Speed: 32})
	if err != nil {
		t.Fatal(err)
	}
	pump(t, r.screen, r.run, func(sc string) bool {
		return strings.Contains(sc, "replay crash.octop (cut short)  ■ ended") &&
			strings.Contains(sc, "the recording ends mid-way") && strings.Contains(sc, "task ses_b")
	})
}

// keyPress is the key a person types as text.
func keyPress(text string) tea.KeyPressMsg {
	if text == " " {
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	return tea.KeyPressMsg{Code: rune(text[0]), Text: text}
}

// feedCmd hands msg to m and what its command yields (a batch too) back
// to m, as a program would; timers are not waited for.
func feedCmd(m tea.Model, msg tea.Msg) tea.Model {
	m, cmd := m.Update(msg)
	if cmd == nil {
		return m
	}
	out := cmd()
	if b, ok := out.(tea.BatchMsg); ok {
		for _, c := range b {
			m, _ = m.Update(c())
		}
		return m
	}
	m, _ = m.Update(out)
	return m
}
