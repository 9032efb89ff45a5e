package watchdog

import (
	"slices"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

func TestLifecycle(t *testing.T) {
	aborted, failed := "MessageAbortedError", "APIError"
	a := func(at int64, e ...[]wire.Event) step { return evs(at, join(e...)...) }
	one := func(e ...wire.Event) []wire.Event { return e }
	cases := []struct {
		name  string
		steps []step
		want  []string
	}{
		{"a run starts and completes", []step{
			a(1, run1("ses_a", "")),
			a(2, one(text("ses_a", "prt_t", "all done")), finish("ses_a")),
		}, []string{"session.started ses_a", "session.done ses_a"}},
		{"the same idle twice ends once", []step{
			a(1, run1("ses_a", "")),
			a(2, finish("ses_a")),
			evs(3, idle("ses_a"), wire.SessionIdle{SessionID: "ses_a"}),
		}, []string{"session.started ses_a", "session.done ses_a"}},
		{"an abort", []step{
			a(1, run1("ses_a", "")),
			evs(2, sessErr("ses_a", aborted), idle("ses_a")),
		}, []string{"session.started ses_a", "session.aborted ses_a"}},
		{"a failure", []step{
			a(1, run1("ses_a", "")),
			evs(2, sessErr("ses_a", failed), idle("ses_a")),
		}, []string{"session.started ses_a", "session.failed ses_a"}},
		{"waits on the person, is answered, completes", []step{
			a(1, run1("ses_a", "")),
			evs(2, ask("ses_a", "per_1")),
			evs(3, reply("ses_a", "per_1")),
			a(4, finish("ses_a")),
		}, []string{"session.started ses_a", "session.waiting ses_a", "session.answered ses_a", "session.done ses_a"}},
		{"idle with a reply never finished is interrupted, once its grace is over", []step{
			a(1, run1("ses_a", ""), one(call("ses_a", 1, "bash", "sleep 100", wire.ToolRunning))),
			evs(2, idle("ses_a")),
			tick(3), // within the grace (model.Grace): stopping
			tick(8),
			tick(9),
		}, []string{"session.started ses_a", "session.interrupted ses_a"}},
		{"1.1.65's abort: idle first, the error within the grace", []step{
			a(1, run1("ses_a", ""), one(call("ses_a", 1, "bash", "sleep 100", wire.ToolRunning))),
			evs(2, idle("ses_a")),
			tick(3),
			evs(4, sessErr("ses_a", aborted), idle("ses_a")),
			tick(9),
		}, []string{"session.started ses_a", "session.aborted ses_a"}},
		{"a created session that never ran says nothing", []step{
			evs(1, created("ses_a", "")),
			evs(2, idle("ses_a")),
		}, nil},
		{"sessions found at start are the baseline", []step{
			quietly(0, join(run1("ses_a", ""), run1("ses_b", ""), finish("ses_b"))...),
			resync(0),
			a(5, finish("ses_a")),
		}, []string{"session.done ses_a"}},
		{"a second run of a finished session", []step{
			a(1, run1("ses_a", "")),
			a(2, finish("ses_a")),
			evs(3, msg("ses_a", 3, false), busy("ses_a"), msg("ses_a", 4, false)),
			evs(4, msg("ses_a", 4, true), idle("ses_a")),
		}, []string{"session.started ses_a", "session.done ses_a", "session.started ses_a", "session.done ses_a"}},
		{"reconnect: an end missed while down comes once, after the resync", []step{
			a(1, run1("ses_a", "")),
			conn(2, wire.Connected),
			conn(3, wire.Disconnected),
			quietly(4, finish("ses_a")...),
			conn(5, wire.Connected),
			resync(5),
			resync(6),
		}, []string{"session.started ses_a", "connection.lost", "connection.restored", "session.done ses_a"}},
		{"reconnect: a child born and finished while down", []step{
			a(1, run1("ses_a", "")),
			quietly(4, join(run1("ses_b", "ses_a"), finish("ses_b"))...),
			resync(5),
			resync(6),
		}, []string{"session.started ses_a", "session.started ses_b", "session.done ses_b"}},
		{"connecting attempts while down are not news", []step{
			conn(1, wire.Connecting),
			conn(1, wire.Connected),
			conn(2, wire.Disconnected),
			conn(3, wire.Connecting),
			conn(4, wire.Disconnected),
			conn(5, wire.Connected),
		}, []string{"connection.lost", "connection.restored"}},
		{"a rejected permission that ends the run is a failure (denied)", []step{
			a(1, run1("ses_a", "")),
			evs(2, wire.PartUpdated{Part: wire.Part{ID: "prt_0001", SessionID: "ses_a", MessageID: "msg_0002", Type: wire.PartTool,
				Tool: "bash", State: &wire.ToolState{Status: wire.ToolError, Error: "The user rejected permission to use this specific tool call."}}}),
			a(3, finish("ses_a")),
		}, []string{"session.started ses_a", "session.failed ses_a"}},
		{"a root waits on its background task and its notice", []step{
			a(1, run1("ses_a", ""), one(bgCall("ses_a", "ses_b")), run1("ses_b", "ses_a")),
			a(2, finish("ses_a")),
			a(3, finish("ses_b")),
			a(4, notice("ses_a", "ses_b", "completed"), one(busy("ses_a"))),
			evs(5, msg("ses_a", 4, true), idle("ses_a")),
		}, []string{"session.started ses_a", "session.started ses_b", "session.done ses_b", "session.done ses_a"}},
		{"an aborted background child gets no notice: its parent is done", []step{
			a(1, run1("ses_a", ""), one(bgCall("ses_a", "ses_b")), run1("ses_b", "ses_a")),
			a(2, finish("ses_a")),
			evs(3, msg("ses_b", 2, false), wire.MessageUpdated{Info: wire.Message{ID: "msg_0002", SessionID: "ses_b",
				Role: "assistant", Error: &wire.ErrorInfo{Name: aborted}, Time: wire.MessageTime{Created: 2}}}, idle("ses_b")),
		}, []string{"session.started ses_a", "session.started ses_b", "session.aborted ses_b", "session.done ses_a"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, got := run(t, Config{}, c.steps)
			if !slices.Equal(got, c.want) {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
