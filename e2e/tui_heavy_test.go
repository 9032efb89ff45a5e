package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// heavyCase is a session whose content once blocked the screen, the key
// that draws it, and what shows once it is drawn.
type heavyCase struct {
	name, word, key, drawn string
	title, answer          string
	end                    int64 // when its answer ended; 0: a second after it began
}

// heavyCases are issue 26's third and fourth items: times that reach the
// year 9999 (the timeline built 35 million ticks a frame), an answer of
// 5,000 nested quotes and one of 3,000 lines nesting ever deeper (markdown
// froze the screen for seconds, then minutes), and a 50 MB title (the
// screen at full CPU a frame); and a plain answer to compare with.
func heavyCases() []heavyCase {
	const year9999 = 253402300799000
	var growing strings.Builder
	for i := 1; i <= 3000; i++ {
		growing.WriteString(strings.Repeat(">", i) + " x\n")
	}
	quotes := strings.Repeat("> ", 5_000) + "x" // 10 KB
	huge := "heavytitle " + strings.Repeat("a huge title ", 50<<20/13)
	return []heavyCase{
		{"the result of a plain answer, to compare", "heavyplain", "o", "Result of", "heavyplain answer", "# Done\n\nall **three** fixed", 0},
		{"the timeline to the year 9999", "heavyfar", "T", "critical path", "heavyfar to the year 9999", "done", year9999},
		{"the result of nested quotes", "heavyquote", "o", "Result of", "heavyquote nested quotes", quotes, 0},
		{"the transcript of nested quotes", "heavyquote", "t", "transcript", "heavyquote nested quotes", quotes, 0},
		{"the result of growing nesting", "heavygrow", "o", "Result of", "heavygrow growing nesting", growing.String(), 0},
		{"the transcript of growing nesting", "heavygrow", "t", "transcript", "heavygrow growing nesting", growing.String(), 0},
		{"the timeline of a 50 MB title", "heavytitle", "T", "timeline  heavytitle", huge, "done", 0},
		{"the result of a 50 MB title", "heavytitle", "o", "Result of", huge, "done", 0},
	}
}

// serve puts c's session on a fake of its own: one finished run whose
// answer is c.answer.
func (c heavyCase) serve(t *testing.T) *opencodetest.Server {
	srv := opencodetest.New(t, opencodetest.Options{})
	at := time.Now().Add(-time.Minute).UnixMilli()
	end := c.end
	if end == 0 {
		end = at + 1000
	}
	id := "ses_" + c.word
	srv.AddSession(wire.Session{ID: id, Title: c.title, Agent: "build", Time: wire.SessionTime{Created: at, Updated: at + 1000}})
	srv.SetMessages(id, []wire.MessageWithParts{
		{Info: wire.Message{ID: "msg_" + c.word + "1", SessionID: id, Role: "user", Time: wire.MessageTime{Created: at}},
			Parts: []wire.Part{{ID: "prt_" + c.word + "1", SessionID: id, MessageID: "msg_" + c.word + "1", Type: wire.PartText, Text: "go"}}},
		{Info: wire.Message{ID: "msg_" + c.word + "2", SessionID: id, Role: "assistant", Finish: "stop",
			Time: wire.MessageTime{Created: at + 100, Completed: end}},
			Parts: []wire.Part{{ID: "prt_" + c.word + "2", SessionID: id, MessageID: "msg_" + c.word + "2", Type: wire.PartText,
				Text: c.answer, Time: &wire.PartTime{Start: at + 200, End: end}}}},
	})
	return srv
}

// TestTUIHeavyContentKeysAnswer: over each heavy session, the room that
// draws it opens, esc closes it, and ctrl+c quits octop from inside it,
// each within keysAnswer (the deadline says when to give up, not how
// fast is fast: the time each took is logged, for a person to read).
func TestTUIHeavyContentKeysAnswer(t *testing.T) {
	parallel(t)
	tuiRequireTmux(t)
	for _, c := range heavyCases() {
		t.Run(c.name, func(t *testing.T) {
			tm := tuiStart(t, 120, 36, "--server", c.serve(t).URL())
			tm.waitFor("the session selected", func(sc string) bool { return strings.Contains(actHeader(sc), c.word) })
			tm.actSend(c.key)
			tm.waitFor(c.name+" drawn", func(sc string) bool { return strings.Contains(sc, c.drawn) })
			t.Logf("esc closed it in %v", tm.timeKey("Escape", func(sc string) bool { return !strings.Contains(sc, c.drawn) }))
			tm.actSend(c.key)
			tm.waitFor(c.name+" drawn again", func(sc string) bool { return strings.Contains(sc, c.drawn) })
			t.Logf("ctrl+c quit in %v", tm.timeKey("C-c", func(string) bool { return tm.gone() }))
		})
	}
}

// timeKey sends key and polls the screen without pause until cond holds,
// within keysAnswer, and returns how long that took: the time from the
// key to the screen that answers it, give or take one capture of the
// pane (a few milliseconds).
func (tm *tuiTerm) timeKey(key string, cond func(screen string) bool) time.Duration {
	tm.t.Helper()
	start := time.Now()
	tm.actSend(key)
	for time.Since(start) < testwait.Scale(keysAnswer) {
		sc := ""
		if !tm.gone() {
			sc, _ = tm.run("capture-pane", "-p", "-t", "octop")
		}
		if cond(sc) {
			return time.Since(start).Round(time.Millisecond)
		}
	}
	tm.t.Fatalf("octop did not answer %s within %v:\n%s", key, testwait.Scale(keysAnswer), tm.last)
	return 0
}
