package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// TestAbortReasonNeverFlips aborts a child in the middle of a long call
// and watches it from the abort until it settles, two ways: a model fed
// by the event stream and told the time, as the screen and watch are, and
// `octop tree --json` run again and again. 1.1.65 goes idle before it
// writes the reply's MessageAbortedError, and 1.18 shows the killed
// command running a moment after its idle: neither way may ever say
// interrupted, before or after aborted, of the session or of its call.
func TestAbortReasonNeverFlips(t *testing.T) {
	parallel(t)
	actForVersions(t, func(t *testing.T, s *harness.Server) {
		ctx := actCtxFor(t)
		c := actNewClient(t, s)
		defer actStopAll(c)
		root := actNewRoot(t, ctx, c, "octop e2e abort reason")
		w := newReasonWatch(ctx, t, c)
		kid, err := live.Launch(ctx, c, task.LaunchRequest{Parent: root.ID, Agent: "general",
			Description: "runaway 1", Prompt: "RUNAWAY sleep=30"})
		if err != nil {
			t.Fatal(err)
		}
		actWaitCallUnderWay(t, ctx, c, kid.ID)
		testwait.Check(t, func() error {
			if k := w.kind(kid.ID); k != model.KindRunning {
				return fmt.Errorf("the model has it %v", k)
			}
			return nil
		}, actE2eWait, "the stream's model to see the child run")

		aborted := make(chan int, 1)
		go func() {
			code, _, _ := actOctop(t, s.URL, "", "abort", kid.ID)
			aborted <- code
		}()
		var tree []string
		testwait.Check(t, func() error {
			code, out, _ := actOctop(t, s.URL, "", "tree", "--json")
			var roots []*live.Node
			if code != 0 || json.Unmarshal([]byte(out), &roots) != nil {
				return fmt.Errorf("tree --json: exit %d", code)
			}
			n := findNode(roots, kid.ID)
			if n == nil {
				return fmt.Errorf("tree --json has no %s", kid.ID)
			}
			seen := n.Status + "/" + n.Reason
			if n.Tools.Interrupted > 0 {
				seen += "/call interrupted"
			}
			if len(tree) == 0 || tree[len(tree)-1] != seen {
				tree = append(tree, seen)
			}
			if n.Reason != model.ReasonAborted {
				return fmt.Errorf("tree says %s", seen)
			}
			return nil
		}, actE2eWait, "tree --json to say the child was aborted")
		if code := <-aborted; code != 0 {
			t.Errorf("octop abort: exit %d", code)
		}
		// The model has had its grace and then some.
		testwait.Check(t, func() error {
			if st := w.state(kid.ID); st.Kind != model.KindAborted {
				return fmt.Errorf("the model has it %+v", st)
			}
			return nil
		}, actE2eWait, "the model to say aborted")
		settled := time.Now().Add(2 * model.Grace * time.Millisecond)
		testwait.Check(t, func() error {
			if time.Now().Before(settled) {
				return fmt.Errorf("waiting out the grace")
			}
			return nil
		}, actE2eWait, "a grace and more after the abort")
		events := w.seen(kid.ID)
		t.Logf("tree --json said %v; the stream's model said %v", tree, events)
		for what, seq := range map[string][]string{"tree --json": tree, "the stream's model": events} {
			if slices.ContainsFunc(seq, func(s string) bool { return strings.Contains(s, model.EndInterrupted) }) {
				t.Errorf("%s said interrupted for an abort: %v", what, seq)
			}
			if len(seq) == 0 || !strings.Contains(seq[len(seq)-1], model.ReasonAborted) {
				t.Errorf("%s did not end on aborted: %v", what, seq)
			}
		}
	})
}

func findNode(ns []*live.Node, id string) *live.Node {
	for _, n := range ns {
		if n.ID == id {
			return n
		}
		if f := findNode(n.Children, id); f != nil {
			return f
		}
	}
	return nil
}

// reasonWatch is a model fed by a server's event stream and told the
// time ten times a second, as the screen's is, noting every change of
// each session's state and of its calls' outcomes.
type reasonWatch struct {
	mu   sync.Mutex
	st   *model.State
	seq  map[string][]string
	stop context.CancelFunc
}

func newReasonWatch(ctx context.Context, t *testing.T, c interface {
	Stream(context.Context, func(any)) error
}) *reasonWatch {
	ctx, cancel := context.WithCancel(ctx)
	w := &reasonWatch{st: model.New(), seq: map[string][]string{}, stop: cancel}
	t.Cleanup(cancel)
	w.st.SetNow(time.Now().UnixMilli())
	go func() {
		_ = c.Stream(ctx, func(v any) {
			if env, ok := v.(wire.Envelope); ok && env.Event != nil {
				w.mu.Lock()
				w.st.SetNow(time.Now().UnixMilli())
				w.st.Apply(env.Event)
				w.note()
				w.mu.Unlock()
			}
		})
	}()
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				w.mu.Lock()
				w.st.SetNow(time.Now().UnixMilli())
				w.note()
				w.mu.Unlock()
			}
		}
	}()
	return w
}

// note records each session's state and calls where they changed.
func (w *reasonWatch) note() {
	for _, r := range w.st.Roots() {
		for _, id := range w.st.SubtreeIDs(r) {
			ss := w.st.Session(id)
			st := model.StateOf(ss)
			seen := st.Kind.String() + "/" + st.Reason
			for i := range ss.Tools {
				if cs := ss.CallStatus(i); cs == model.ToolInterrupted || cs == model.ToolAborted {
					seen += "/call " + cs.String()
				}
			}
			if q := w.seq[id]; len(q) == 0 || q[len(q)-1] != seen {
				w.seq[id] = append(q, seen)
			}
		}
	}
}

func (w *reasonWatch) state(id string) model.SessionState {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.st.StateOf(id)
}

func (w *reasonWatch) kind(id string) model.Kind { return w.state(id).Kind }

func (w *reasonWatch) seen(id string) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.seq[id])
}
