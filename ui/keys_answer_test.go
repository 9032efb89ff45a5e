package ui

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/inflight"
)

// hangingOps is a server that never answers: every call blocks until its
// context is cancelled, as over a network that has gone quiet.
type hangingOps struct{}

func hang[T any](ctx context.Context) (T, error) {
	<-ctx.Done()
	var zero T
	return zero, ctx.Err()
}

func (hangingOps) Snapshot(ctx context.Context) (model.Snapshot, error) {
	return hang[model.Snapshot](ctx)
}
func (hangingOps) Health(ctx context.Context) (wire.Health, error) { return hang[wire.Health](ctx) }
func (hangingOps) Do(ctx context.Context, r task.Request) task.Reply {
	<-ctx.Done()
	return r.Refused(ctx.Err())
}
func (hangingOps) History(ctx context.Context, _, _ string) ([]wire.MessageWithParts, error) {
	return hang[[]wire.MessageWithParts](ctx)
}

// overlayCases are every overlay a key opens, from a selection (keys
// pressed first), with the request it sends to the server (nil: none).
var overlayCases = []struct {
	name   string
	keys   []string
	opened func(m Model) bool
	req    task.Request
}{
	{"launch", []string{"n"}, hasDialog, task.AgentsRequest{}},
	{"launch root", []string{"N"}, hasDialog, task.LaunchRequest{Agent: "general", Prompt: "p"}},
	{"resume", []string{"G", "r"}, hasDialog, task.ResumeRequest{ID: "ses_c4", Prompt: "again"}},
	{"wait for busy", []string{"r"}, hasDialog, task.WaitRequest{ID: "ses_root"}},
	{"resume by id", []string{"R"}, hasDialog, task.FindRequest{ID: "ses_c4"}},
	{"abort", []string{"x"}, hasDialog, task.AbortRequest{IDs: []string{"ses_root"}}},
	{"abort subtree", []string{"X"}, hasDialog, task.AbortRequest{IDs: []string{"ses_c1", "ses_root"}, Tree: true}},
	{"result", []string{"o"}, hasDialog, task.ResultRequest{ID: "ses_root"}},
	{"transcript", []string{"t"}, hasDialog, task.MessagesRequest{ID: "ses_root"}},
	{"files changed", []string{"d"}, hasDialog, task.MessagesRequest{ID: "ses_root"}},
	{"timeline", []string{"T"}, hasDialog, nil},
	{"inbox", []string{"i"}, hasDialog, nil},
	{"help", []string{"?"}, func(m Model) bool { return m.help.ShowAll }, nil},
}

func hasDialog(m Model) bool { return m.dialog != nil }

// openOverlay opens an overlay and, when it asks the server something,
// starts that request (the Cmd runs on its own goroutine, hanging) and
// returns the channel its reply comes on.
func openOverlay(t *testing.T, keys []string, opened func(Model) bool, req task.Request) (Model, chan tea.Msg) {
	t.Helper()
	m := send(t, newTestModel(t, 120, 40, func(o *Options) { o.Server = hangingOps{} }), fanOut())
	m = press(t, m, keys...)
	if !opened(m) {
		t.Fatalf("%v opened nothing:\n%s", keys, screen(m))
	}
	if req == nil {
		return m, nil
	}
	nm, cmd := m.Update(inflight.Stamped{Gen: m.dialogGen, Req: req})
	m = nm.(Model)
	if cmd == nil || !m.dialogBusy() {
		t.Fatalf("%T started no request", req)
	}
	reply := make(chan tea.Msg, 1)
	go func() { reply <- cmd() }()
	return m, reply
}

// TestEscClosesEveryOverlayAndCancelsItsRequest: esc closes each overlay
// at once, even while its request hangs; the request's context is
// cancelled (its Cmd returns), and its late reply is dropped.
func TestEscClosesEveryOverlayAndCancelsItsRequest(t *testing.T) {
	for _, c := range overlayCases {
		t.Run(c.name, func(t *testing.T) {
			m, reply := openOverlay(t, c.keys, c.opened, c.req)
			// A room may close by a message of its own (Close): do runs
			// the Cmds esc returns.
			m, _ = do(t, m, escKey)
			if c.opened(m) {
				t.Fatalf("esc left the %s open:\n%s", c.name, screen(m))
			}
			if m.calls.Busy() {
				t.Fatal("a request is still in flight after esc")
			}
			if reply == nil {
				return
			}
			var late tea.Msg
			testwait.Eventually(t, func() bool {
				select {
				case late = <-reply:
					return true
				default:
					return false
				}
			}, 5*time.Second, "the %s's request to be cancelled", c.name)
			m = send(t, m, late)
			if m.dialog != nil {
				t.Fatal("the cancelled request's reply opened something")
			}
			// Still answering: the tree moves.
			if m = press(t, m, "j"); m.Selected() == "" {
				t.Fatal("no selection after esc")
			}
		})
	}
}

// TestCtrlCQuitsFromEveryOverlay: ctrl+c quits from each overlay, with its
// request in flight, and cancels the request.
func TestCtrlCQuitsFromEveryOverlay(t *testing.T) {
	for _, c := range overlayCases {
		t.Run(c.name, func(t *testing.T) {
			m, reply := openOverlay(t, c.keys, c.opened, c.req)
			nm, cmd := m.Update(keyMsgs("ctrl+c")[0])
			if !isQuit(cmd) {
				t.Fatalf("ctrl+c did not quit from the %s", c.name)
			}
			if reply == nil {
				return
			}
			if nm.(Model).calls.Busy() {
				t.Fatal("a request is left in flight on quit")
			}
			testwait.Eventually(t, func() bool { return len(reply) == 1 }, 5*time.Second,
				"the %s's request to be cancelled on quit", c.name)
		})
	}
}

// TestCtrlCQuitsWhileTyping: ctrl+c is not text, in the filter nor in a
// form's fields.
func TestCtrlCQuitsWhileTyping(t *testing.T) {
	for _, keys := range [][]string{{"/", "lint"}, {"n", "tab", "some words"}, {"R", "ses_"}} {
		m := send(t, newTestModel(t, 120, 40, func(o *Options) { o.Server = hangingOps{} }), fanOut())
		m = press(t, m, keys...)
		if _, cmd := m.Update(keyMsgs("ctrl+c")[0]); !isQuit(cmd) {
			t.Errorf("ctrl+c after %q did not quit", keys)
		}
	}
}
