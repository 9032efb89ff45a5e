package watchdog

import (
	"encoding/json"
	"testing"

	"github.com/octop-dev/octop/model"
)

func TestNotable(t *testing.T) {
	cases := []struct {
		e    Event
		want bool
	}{
		{Event{Name: SessionDone, ID: "ses_r"}, true},                   // a root finishing
		{Event{Name: SessionDone, ID: "ses_c", Parent: "ses_r"}, false}, // a child finishing normally
		{Event{Name: SessionAborted, ID: "ses_r"}, true},                // a root stopped
		{Event{Name: SessionAborted, ID: "ses_c", Parent: "ses_r"}, false},
		{Event{Name: SessionFailed, ID: "ses_c", Parent: "ses_r"}, true}, // any failure
		{Event{Name: SessionWaiting, ID: "ses_c", Parent: "ses_r"}, true},
		{Event{Name: "runaway.loop", ID: "ses_c", Parent: "ses_r"}, true},
		{Event{Name: SessionStarted, ID: "ses_r"}, false},
		{Event{Name: SessionAnswered, ID: "ses_r"}, false},
		{Event{Name: ConnectionLost}, false},
	}
	for _, c := range cases {
		if got := c.e.Notable(); got != c.want {
			t.Errorf("%s parent=%q: Notable %v, want %v", c.e.Name, c.e.Parent, got, c.want)
		}
	}
}

func TestEventJSON(t *testing.T) {
	e := Event{TS: 1700000000123, Name: "runaway.loop", ID: "ses_c", Parent: "ses_r", Root: "ses_r",
		Title: "grep", Agent: "general", Status: "busy", Reason: `bash "grep x" 5 times in a row`, Tokens: 10,
		Cost: model.Cost{USD: 0.5, Unpriced: 1}.JSON(), Unpriced: 1}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"ts":"2023-11-14T22:13:20.123Z","event":"runaway.loop","id":"ses_c","parent":"ses_r","root":"ses_r",` +
		`"title":"grep","agent":"general","status":"busy","reason":"bash \"grep x\" 5 times in a row","tokens":10,"cost":0.5,"unpriced_replies":1}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestParseKinds(t *testing.T) {
	ks, err := ParseKinds("loop, Stall,budget,errors")
	if err != nil || len(ks) != 4 || ks[1] != Stall {
		t.Errorf("got %v, %v", ks, err)
	}
	if ks, err := ParseKinds(""); err != nil || ks != nil {
		t.Errorf("blank: %v, %v", ks, err)
	}
	if _, err := ParseKinds("loop,forever"); err == nil || err.Error() != `"forever" is not a watchdog kind; use loop, stall, budget or errors` {
		t.Errorf("bad kind: %v", err)
	}
}

func TestKindIndexes(t *testing.T) {
	for i, k := range map[int]Kind{loopIdx: Loop, stallIdx: Stall, budgetIdx: Budget, errorsIdx: Errors} {
		if kinds[i] != k {
			t.Errorf("kinds[%d] = %s, want %s", i, kinds[i], k)
		}
	}
}
