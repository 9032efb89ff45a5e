package watchdog

import (
	"slices"
	"testing"

	"github.com/octop-dev/octop/wire"
)

func TestLifecycle(t *testing.T) {
	aborted, failed := "MessageAbortedError", "APIError"
	cases := []struct {
		name  string
		steps []step
		want  []string
	}{
		{"a run starts and completes", []step{
			evs(1, created("ses_a", ""), busy("ses_a")),
			evs(2, text("ses_a", "prt_t", "all done"), idle("ses_a")),
		}, []string{"session.started ses_a", "session.done ses_a"}},
		{"the same idle twice ends once", []step{
			evs(1, created("ses_a", ""), busy("ses_a")),
			evs(2, text("ses_a", "prt_t", "ok"), idle("ses_a")),
			evs(3, idle("ses_a"), wire.SessionIdle{SessionID: "ses_a"}),
		}, []string{"session.started ses_a", "session.done ses_a"}},
		{"an abort", []step{
			evs(1, created("ses_a", ""), busy("ses_a")),
			evs(2, sessErr("ses_a", aborted), idle("ses_a")),
		}, []string{"session.started ses_a", "session.aborted ses_a"}},
		{"a failure", []step{
			evs(1, created("ses_a", ""), busy("ses_a")),
			evs(2, sessErr("ses_a", failed), idle("ses_a")),
		}, []string{"session.started ses_a", "session.failed ses_a"}},
		{"waits on the person, is answered, completes", []step{
			evs(1, created("ses_a", ""), busy("ses_a")),
			evs(2, ask("ses_a", "per_1")),
			evs(3, reply("ses_a", "per_1")),
			evs(4, text("ses_a", "prt_t", "ok"), idle("ses_a")),
		}, []string{"session.started ses_a", "session.waiting ses_a", "session.answered ses_a", "session.done ses_a"}},
		{"idle with a call left running is interrupted", []step{
			evs(1, created("ses_a", ""), busy("ses_a"), call("ses_a", 1, "bash", "sleep 100", wire.ToolRunning)),
			evs(2, idle("ses_a")),
		}, []string{"session.started ses_a", "session.interrupted ses_a"}},
		{"a created session that never ran says nothing", []step{
			evs(1, created("ses_a", "")),
			evs(2, idle("ses_a")),
		}, nil},
		{"sessions found at start are the baseline", []step{
			quietly(0, created("ses_a", ""), busy("ses_a"), created("ses_b", ""), text("ses_b", "prt_t", "old")),
			resync(0),
			evs(5, text("ses_a", "prt_t", "ok"), idle("ses_a")),
		}, []string{"session.done ses_a"}},
		{"a second run of a finished session", []step{
			evs(1, created("ses_a", ""), busy("ses_a")),
			evs(2, text("ses_a", "prt_t", "ok"), idle("ses_a")),
			evs(3, busy("ses_a")),
			evs(4, idle("ses_a")),
		}, []string{"session.started ses_a", "session.done ses_a", "session.started ses_a", "session.done ses_a"}},
		{"reconnect: an end missed while down comes once, after the resync", []step{
			evs(1, created("ses_a", ""), busy("ses_a")),
			conn(2, wire.Connected),
			conn(3, wire.Disconnected),
			quietly(4, text("ses_a", "prt_t", "ok"), idle("ses_a")),
			conn(5, wire.Connected),
			resync(5),
			resync(6),
		}, []string{"session.started ses_a", "connection.lost", "connection.restored", "session.done ses_a"}},
		{"reconnect: a child born and finished while down", []step{
			evs(1, created("ses_a", ""), busy("ses_a")),
			quietly(4, created("ses_b", "ses_a"), text("ses_b", "prt_t", "ok"), idle("ses_b")),
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
