package ui

import (
	"strings"
	"testing"
)

// TestReadOnlyScreenSendsNothing: on a read-only server (--read-only)
// every key that would launch, resume or abort answers read-only at once,
// an answer in the inbox says read-only, the keys that only read still
// open their rooms, and the server is sent nothing that changes it.
func TestReadOnlyScreenSendsNothing(t *testing.T) {
	const notice = "read-only: octop changes nothing on this server"
	hs := newShowcaseScreen(t, 160, 50, screenSetup{readOnly: notice})
	if !strings.Contains(screen(hs.m), "read-only") {
		t.Errorf("the header does not say read-only:\n%s", screen(hs.m))
	}
	for _, k := range []struct{ session, key string }{{hs.sc.Root, "n"}, {"", "N"}, {hs.sc.Done, "r"},
		{hs.sc.Root, "r"}, {"", "R"}, {hs.sc.Root, "x"}, {hs.sc.Root, "X"}, {hs.sc.Worker, "m"}, {hs.sc.Failed, "a"},
		{hs.sc.Done, "u"}, {hs.sc.Done, "U"}} {
		if k.session != "" {
			hs.selectSession(k.session)
		}
		hs.keys(k.key)
		if hs.m.dialog != nil || hs.m.flashMsg.Text != notice {
			t.Errorf("%s on %s: dialog %v, notice %q; want the read-only notice at once", k.key, k.session, hs.m.dialog != nil, hs.m.flashMsg.Text)
		}
		hs.keys("esc")
	}
	for _, k := range []string{"o", "t", "d", "T"} {
		hs.selectSession(hs.sc.Done)
		if hs.keys(k); hs.m.dialog == nil {
			t.Errorf("%s opened nothing on a read-only server", k)
		}
		hs.keys("esc")
	}
	// The inbox opens (it only reads); each answer is refused.
	hs.selectSession(hs.sc.Waiting)
	hs.keys("i")
	if hs.m.dialog == nil {
		t.Fatal("the inbox did not open")
	}
	hs.keys("a", "j", "1", "d")
	if v := dialogText(hs.m); strings.Count(v, "read-only") < 1 {
		t.Errorf("the inbox does not say the answers were refused:\n%s", v)
	}
	hs.keys("esc")
	if m := hs.srv.Mutations(); len(m) != 0 {
		t.Errorf("the read-only screen sent %v", m)
	}
}
