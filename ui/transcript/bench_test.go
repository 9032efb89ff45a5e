package transcript

import (
	"fmt"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/markdown"
	"github.com/octop-dev/octop/ui/styles"
)

// bigSession is n parts: per assistant message a reasoning part, a bash
// call with 20 lines of output and a markdown text part.
func bigSession(n int) []wire.MessageWithParts {
	msgs := []wire.MessageWithParts{{Info: wire.Message{ID: "m00000", SessionID: "ses_p", Role: "user"},
		Parts: []wire.Part{{ID: "p000000", Type: wire.PartText, Text: "Do the big job."}}}}
	out := ""
	for i := range 20 {
		out += fmt.Sprintf("line %d of the output of a command that printed a fair amount\n", i)
	}
	for i := 1; len(msgs)*3 < n; i++ {
		id := fmt.Sprintf("m%05d", i)
		msgs = append(msgs, wire.MessageWithParts{
			Info: wire.Message{ID: id, SessionID: "ses_p", Role: "assistant", Time: wire.MessageTime{Completed: 1}},
			Parts: []wire.Part{
				{ID: fmt.Sprintf("p%06da", i), Type: wire.PartReasoning, Text: "Next I look at the file.\nThen I run it."},
				toolPart(fmt.Sprintf("p%06db", i), "bash", wire.ToolCompleted, fmt.Sprintf(`{"command":"go test ./pkg%d"}`, i), out),
				{ID: fmt.Sprintf("p%06dc", i), Type: wire.PartText, Text: fmt.Sprintf("Step **%d** done:\n\n- one\n- two", i)},
			}})
	}
	return msgs
}

// BenchmarkFirstScreen: from the fetched messages of a 5,000-part session
// to the first drawn screen (tailing: the last entries), markdown
// rendered by ui/markdown.
func BenchmarkFirstScreen(b *testing.B) {
	msgs := bigSession(5000)
	st := styles.New(true, false)
	b.ResetTimer()
	for b.Loop() {
		md := markdown.New(true, false)
		m := New("ses_p", "big", st, md.Render)
		m.SetSize(120, 40)
		m, _ = m.Update(Loaded{ID: "ses_p", Msgs: msgs})
		_ = m.View()
	}
}

// BenchmarkScroll: one entry down (or up) and a redraw, at entry 10
// and at entry 5,000 of a 5,000-part session: "fresh" clears the drawing
// cache first (every visible entry drawn again, markdown included: the
// worst case), "cached" is the usual case.
func BenchmarkScroll(b *testing.B) {
	msgs := bigSession(5000)
	st := styles.New(true, false)
	md := markdown.New(true, false)
	for _, tc := range []struct {
		at    int
		fresh bool
	}{{10, true}, {4990, true}, {10, false}, {4990, false}} {
		name := fmt.Sprintf("at=%d/cached", tc.at)
		if tc.fresh {
			name = fmt.Sprintf("at=%d/fresh", tc.at)
		}
		at := tc.at
		b.Run(name, func(b *testing.B) {
			m := New("ses_p", "big", st, md.Render)
			m.SetSize(120, 40)
			m, _ = m.Update(Loaded{ID: "ses_p", Msgs: msgs})
			m.follow, m.cursor, m.top = false, at, at
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if tc.fresh {
					clear(m.r.cache)
				}
				d := 1
				if i%2 == 1 {
					d = -1
				}
				m.moveCursor(d)
				_ = m.View()
			}
		})
	}
}
