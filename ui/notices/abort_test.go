package notices

import (
	"context"
	"slices"
	"testing"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/watchdog"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// fakeServer records the requests it is asked to carry out.
type fakeServer struct{ got []task.AbortRequest }

func (f *fakeServer) Snapshot(context.Context) (model.Snapshot, error) { return model.Snapshot{}, nil }
func (f *fakeServer) Health(context.Context) (wire.Health, error)      { return wire.Health{}, nil }
func (f *fakeServer) History(context.Context, string, string) ([]wire.MessageWithParts, error) {
	return nil, nil
}
func (f *fakeServer) Do(_ context.Context, r task.Request) task.Reply {
	a := r.(task.AbortRequest)
	f.got = append(f.got, a)
	return task.AbortReply{IDs: a.IDs}
}

// TestAbortOnStopsThePlan: --abort-on stops what the model's one plan
// (State.AbortPlan) names, the same the screen's X confirms: the
// offender's running subtree deepest first, then the offender if it still
// runs, and nothing when nothing runs (the offender stopped meanwhile).
func TestAbortOnStopsThePlan(t *testing.T) {
	st := model.New()
	for _, s := range []wire.Session{{ID: "ses_root"}, {ID: "ses_kid", ParentID: "ses_root"}, {ID: "ses_leaf", ParentID: "ses_kid"},
		{ID: "ses_done", ParentID: "ses_root"}} {
		st.Apply(wire.SessionCreated{Info: s})
	}
	for _, id := range []string{"ses_root", "ses_kid", "ses_leaf"} {
		st.Apply(wire.SessionStatusChanged{SessionID: id, Status: wire.SessionStatus{Type: wire.StatusBusy}})
	}
	srv := &fakeServer{}
	w := New(&watchdog.Config{}, Options{Server: srv})
	run := func(id string) []string {
		srv.got = nil
		_, cmds := w.out(st, watchdog.Out{Aborts: []watchdog.Abort{{ID: id, Kind: watchdog.Loop, Reason: "aborted by octop: loop"}}}, 1)
		for _, c := range cmds {
			c()
		}
		if len(srv.got) == 0 {
			return nil
		}
		return srv.got[0].IDs
	}
	if got, want := run("ses_root"), st.AbortPlan("ses_root"); !slices.Equal(got, want) || !slices.Equal(got, []string{"ses_leaf", "ses_kid", "ses_root"}) {
		t.Errorf("abort of the root stops %v; the plan is %v", got, want)
	}
	if got := run("ses_done"); got != nil {
		t.Errorf("an offender that no longer runs: %v sent, want nothing", got)
	}
}
