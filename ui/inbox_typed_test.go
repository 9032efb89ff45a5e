package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/wire"
)

// TestInboxTypedAnswer: t types an answer of one's own; enter sends it,
// esc goes back to the list without sending, and while typing the keys
// are text (d, a, j do not act).
func TestInboxTypedAnswer(t *testing.T) {
	rec, c := newReplyRecorder(t)
	m := inboxModel(t, c, 120, 40)
	m, _ = do(t, m, keyMsgs("i")[0])
	m = press(t, m, "t") // its Cmd is the cursor's blink timer
	if d := dialogText(m); !strings.Contains(d, "✎ ") || !strings.Contains(d, "enter send · esc stop typing") {
		t.Fatalf("t did not open the answer input:\n%s", d)
	}
	m = press(t, m, "draft")
	m, _ = do(t, m, escKey)
	if m.dialog == nil || strings.Contains(dialogText(m), "✎ ") {
		t.Fatalf("esc while typing: dialog open %v\n%s", m.dialog != nil, dialogText(m))
	}
	m = press(t, m, "t") // its Cmd is the cursor's blink timer
	m = press(t, m, "mysql, and d a j are text")
	m = send(t, m, tea.PasteMsg{Content: " (pasted)"})
	if got := rec.requests(); len(got) != 0 {
		t.Fatalf("typing sent %q", got)
	}
	m, msgs := do(t, m, enterKey)
	want := `POST /question/que_1/reply {"answers":[["mysql, and d a j are text (pasted)"]]}`
	if got := rec.requests(); len(got) != 1 || got[0] != want {
		t.Fatalf("enter sent %q, want %q", got, want)
	}
	if f := flashes(msgs); len(f) != 1 || !strings.HasPrefix(f[0], `answered "mysql`) {
		t.Errorf("notices %q", f)
	}
	if m.dialog == nil {
		t.Error("sending the typed answer closed the inbox")
	}
}

// TestInboxTypedAnswerAnsweredElsewhere: the question leaves while its
// answer is typed; the next key says so and sends nothing.
func TestInboxTypedAnswerAnsweredElsewhere(t *testing.T) {
	rec, c := newReplyRecorder(t)
	m := inboxModel(t, c, 120, 40)
	m, _ = do(t, m, keyMsgs("i")[0])
	m = press(t, m, "t") // its Cmd is the cursor's blink timer
	m = press(t, m, "x")
	m = send(t, m, events(wire.QuestionRejected{SessionID: "ses_q", RequestID: "que_1"}))
	m, msgs := do(t, m, enterKey)
	if f := flashes(msgs); len(f) != 1 || !strings.Contains(f[0], "answered or dismissed elsewhere") {
		t.Errorf("notices %q", f)
	}
	if got := rec.requests(); len(got) != 0 {
		t.Errorf("sent %q", got)
	}
	// Back to the list: a is a key again.
	_, _ = do(t, m, keyMsgs("a")[0])
	if got := rec.requests(); len(got) != 1 || !strings.HasPrefix(got[0], "POST /permission/per_1/reply") {
		t.Errorf("a after typing ended sent %q", got)
	}
}

// TestInboxMultipleChoice: for a question that takes several answers the
// numbers toggle, and s sends what is on, in the options' order.
func TestInboxMultipleChoice(t *testing.T) {
	rec, c := newReplyRecorder(t)
	m := newTestModel(t, 120, 40, func(o *Options) { o.Server = live.New(c) })
	m = send(t, m, events(created("ses_root", "", "plan", 0), busy("ses_root"),
		wire.QuestionAsked{Request: wire.QuestionRequest{ID: "que_3", SessionID: "ses_root", Questions: []wire.QuestionInfo{
			{Header: "Checks", Question: "Which checks?", Multiple: true,
				Options: []wire.QuestionOption{{Label: "vet"}, {Label: "lint"}, {Label: "test"}}},
		}}}))
	m, _ = do(t, m, keyMsgs("i")[0])
	if d := dialogText(m); !strings.Contains(d, "1 [ ] vet") || !strings.Contains(d, "1-3 toggle") || strings.Contains(d, "s send picks") {
		t.Fatalf("multiple choice:\n%s", d)
	}
	m, _ = do(t, m, keyMsgs("s")[0]) // nothing on yet: nothing sent
	for _, k := range []string{"3", "1", "2", "2"} {
		m, _ = do(t, m, keyMsgs(k)[0])
	}
	if got := rec.requests(); len(got) != 0 {
		t.Fatalf("toggling sent %q", got)
	}
	if d := dialogText(m); !strings.Contains(d, "1 [x] vet") || !strings.Contains(d, "2 [ ] lint") || !strings.Contains(d, "3 [x] test") ||
		!strings.Contains(d, "s send picks") {
		t.Fatalf("after 3 1 2 2:\n%s", d)
	}
	_, _ = do(t, m, keyMsgs("s")[0])
	if got := rec.requests(); len(got) != 1 || got[0] != `POST /question/que_3/reply {"answers":[["vet","test"]]}` {
		t.Errorf("s sent %q", got)
	}
}

// BenchmarkInboxView is one frame with the inbox open over a big tree in
// which ten sessions wait: an event, so the item list must be rebuilt
// (a walk of the tree), then the render. "dialog" draws the inbox alone;
// "frame" draws the screen under it too, composited by the root's overlay.
func BenchmarkInboxView(b *testing.B) {
	for _, n := range []int{1000, 10_000} {
		for _, part := range []string{"dialog", "frame"} {
			b.Run(fmt.Sprintf("sessions=%d/%s", n, part), func(b *testing.B) {
				_, c := newReplyRecorder(b)
				m := New(Options{ServerURL: "http://127.0.0.1:4096", Clock: fixedClock, Server: live.New(c)})
				m = send(b, m, tea.WindowSizeMsg{Width: 160, Height: 48})
				m = send(b, m, bigTree(n))
				for i := range 10 {
					m = send(b, m, events(permission(fmt.Sprintf("ses_r%05d_c%d", i*7, i%9), fmt.Sprintf("per_%02d", i))))
				}
				m = press(b, m, "i")
				if m.dialog == nil || !strings.Contains(dialogText(m), "Inbox: 10 requests") {
					b.Fatalf("inbox:\n%s", dialogText(m))
				}
				kid := "ses_r00003_c1"
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; b.Loop(); i++ {
					if part == "dialog" {
						m.state.Apply(toolCall(kid, kid+"_b", "bash", wire.ToolRunning, fmt.Sprint(i), `{"command":"go test ./..."}`, 3.3, -1))
						_ = m.dialog.View(160, 48)
						continue
					}
					m = send(b, m, events(toolCall(kid, kid+"_b", "bash", wire.ToolRunning, fmt.Sprint(i), `{"command":"go test ./..."}`, 3.3, -1)))
					_ = m.View()
				}
			})
		}
	}
}

// A question that does not take answers of one's own (custom: false)
// offers no typing, and t does nothing; the server's default (no flag)
// does offer it, as TestInboxTypedAnswer shows.
func TestInboxNoTypingWhenCustomIsOff(t *testing.T) {
	rec, c := newReplyRecorder(t)
	off := false
	m := newTestModel(t, 120, 40, func(o *Options) { o.Server = live.New(c) })
	m = send(t, m, events(
		created("ses_r", "", "root", 1), userMsg("ses_r", 1), busy("ses_r"),
		wire.QuestionAsked{Request: wire.QuestionRequest{ID: "que_9", SessionID: "ses_r", Questions: []wire.QuestionInfo{{
			Header: "Pick", Question: "Which one?", Custom: &off,
			Options: []wire.QuestionOption{{Label: "a"}, {Label: "b"}},
		}}}},
	))
	m, _ = do(t, m, keyMsgs("i")[0])
	if d := dialogText(m); strings.Contains(d, "type answer") || !strings.Contains(d, "1-2 answer") {
		t.Fatalf("custom:false still offers typing, or lost its options:\n%s", d)
	}
	m = press(t, m, "t")
	if strings.Contains(dialogText(m), "✎ ") {
		t.Fatal("t opened an answer input on a question that takes none")
	}
	if got := rec.requests(); len(got) != 0 {
		t.Fatalf("sent %q", got)
	}
}
