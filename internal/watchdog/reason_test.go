package watchdog

import (
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// TestEndReasonIsTheModels: the reason an end event gives is the
// model's (model.StateOf's Detail), as the screen's detail pane and
// tree --json give it; an abort that was not octop's reads "aborted by
// a user", never the server's error name.
func TestEndReasonIsTheModels(t *testing.T) {
	for _, name := range []string{"MessageAbortedError", "APIError"} {
		st, w := model.New(), New(Config{})
		w.Resync(st, 0)
		var got []Event
		for i, evs := range [][]wire.Event{run1("ses_a", ""), {sessErr("ses_a", name), idle("ses_a")}} {
			for _, e := range evs {
				st.Apply(e)
			}
			got = append(got, w.Events(st, evs, int64(i+1)*1000).Events...)
		}
		want := model.StateOf(st.Session("ses_a")).Detail
		if len(got) != 2 || got[1].Reason != want {
			t.Errorf("%s: events %+v; want the end's reason %q", name, got, want)
		}
	}
}
