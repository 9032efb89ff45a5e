package transcript

import (
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// Streaming the session's events into a Live gives the same entries as
// reading the finished messages.
func TestLiveMatchesBuild(t *testing.T) {
	msgs := session()
	l := NewLive("s", msgs[:1])
	v := l.Version()
	for _, m := range msgs[1:] {
		info := m.Info
		l.Apply(wire.MessageUpdated{Info: info})
		for _, p := range m.Parts {
			p.SessionID, p.MessageID = "s", info.ID
			text := p.Text
			if p.Type == wire.PartText {
				p.Text = ""
			}
			l.Apply(wire.PartUpdated{Part: p})
			if text != "" && p.Type == wire.PartText {
				l.Apply(wire.PartDelta{SessionID: "s", MessageID: info.ID, PartID: p.ID, Field: "text", Delta: text})
			}
		}
	}
	if l.Apply(wire.PartUpdated{Part: wire.Part{ID: "x", SessionID: "other", MessageID: "m9"}}) {
		t.Error("another session's part changed the transcript")
	}
	want := Build(msgs)
	got := l.Entries()
	if len(got) != len(want) || l.Version() == v {
		t.Fatalf("%d entries, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		g.SessionID, w.SessionID = "", ""
		if g != w {
			t.Errorf("entry %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
	l.Apply(wire.PartRemoved{SessionID: "s", MessageID: "m2", PartID: "p4"})
	l.Apply(wire.MessageRemoved{SessionID: "s", MessageID: "m3"})
	if n := len(l.Entries()); n != len(want)-3 {
		t.Errorf("after removing a part and a message: %d entries, want %d", n, len(want)-3)
	}
}
