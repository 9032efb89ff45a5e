package ui

import (
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// issue26 is an agent's answer of character references that, resolved
// after the text was cleaned, retitled the terminal, wrote its clipboard,
// cleared the screen, opened a CSI with a C1 control and reversed the
// text after it when o or t drew it.
const issue26 = "&#x1b;]0;pwned&#7; &#x1b;]52;c;ZXZpbA==&#7; &#x1b;[2J &#x9b;31m &#x202e;x"

// TestEntitiesInAnAnswer: an answer made of character references reaches
// the screen as text in the result (o) and the transcript (t): the
// references resolved, then cleaned (ESC shows as ␛, BEL as ␇).
func TestEntitiesInAnAnswer(t *testing.T) {
	hs := newShowcaseScreen(t, 120, 40, screenSetup{})
	at := int64(1795284000000)
	hs.srv.SetMessages(hs.sc.Done, []wire.MessageWithParts{
		{Info: wire.Message{ID: "msg_e1", SessionID: hs.sc.Done, Role: "user", Time: wire.MessageTime{Created: at}},
			Parts: []wire.Part{{ID: "prt_e1", SessionID: hs.sc.Done, MessageID: "msg_e1", Type: wire.PartText, Text: "answer"}}},
		{Info: wire.Message{ID: "msg_e2", SessionID: hs.sc.Done, Role: "assistant", Finish: "stop",
			Time: wire.MessageTime{Created: at + 100, Completed: at + 900}},
			Parts: []wire.Part{{ID: "prt_e2", SessionID: hs.sc.Done, MessageID: "msg_e2", Type: wire.PartText, Text: issue26,
				Time: &wire.PartTime{Start: at + 200, End: at + 800}}}},
	})
	hs.selectSession(hs.sc.Done)
	for _, k := range []string{"o", "t"} {
		hs.keys(k)
		if hs.m.dialog == nil {
			t.Fatalf("%s opened no room:\n%s", k, screen(hs.m))
		}
		hs.check(k+" on an answer of character references", true)
		hs.keys("esc")
	}
}
