package watchdog

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// TestEventCostUnpriced: a session's event carries its subtree's cost as
// the model counts it: null when no reply is priced, beside the count of
// unpriced replies; never a made-up 0.
func TestEventCostUnpriced(t *testing.T) {
	st, w := model.New(), New(Config{})
	w.Resync(st, 0)
	steps := []wire.Event{created("ses_r", ""), created("ses_c", "ses_r"), busy("ses_r"),
		spend("ses_r", "msg_0002", 300, 0), spend("ses_c", "msg_0003", 15, 0)}
	for _, e := range steps {
		st.Apply(e)
	}
	out := w.Events(st, steps, 1000)
	var line string
	for _, e := range out.Events {
		if e.Name == SessionStarted && e.ID == "ses_r" {
			b, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			line = string(b)
		}
	}
	if !strings.Contains(line, `"tokens":315,"cost":null,"unpriced_replies":2}`) {
		t.Errorf("the root's session.started is %s, want cost null beside 2 unpriced replies", line)
	}
}

// TestBudgetJudgesWhatIsPriced: the cost cap judges the priced part, a
// lower bound when some replies are unpriced, and the mark says so; what
// no reply prices is not taken as $0 spent, nor guessed over the cap.
func TestBudgetJudgesWhatIsPriced(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replies []wire.Event
		want    string
	}{
		{"all priced", []wire.Event{spend("ses_a", "msg_0002", 10, 0.75)}, "spent $0.75, over the cap of $0.50"},
		{"some unpriced", []wire.Event{spend("ses_a", "msg_0002", 10, 0.75), spend("ses_a", "msg_0003", 10, 0)},
			"spent ≥$0.75, over the cap of $0.50"},
		{"none priced", []wire.Event{spend("ses_a", "msg_0002", 1e6, 0)}, ""},
	} {
		st := model.New()
		st.Apply(created("ses_b", "ses_a"))
		for _, e := range tc.replies {
			st.Apply(e)
		}
		got, _ := detectBudget(st, st.Session("ses_a"), Config{BudgetCost: 0.5})
		if got != tc.want {
			t.Errorf("%s: mark %q, want %q", tc.name, got, tc.want)
		}
	}
}
