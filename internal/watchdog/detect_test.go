package watchdog

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/wire"
)

// start is a busy root ses_a at second 0.
func start() step { return evs(0, run1("ses_a", "")...) }

func distinct(id string, first, n int) []wire.Event {
	var out []wire.Event
	for i := first; i < first+n; i++ {
		out = append(out, call(id, i, "bash", fmt.Sprint("echo ", i), wire.ToolCompleted))
	}
	return out
}

func alternating(id string, first, n int) []wire.Event {
	var out []wire.Event
	for i := first; i < first+n; i++ {
		cmd := "grep -r foo"
		if i%2 == 0 {
			cmd = fmt.Sprint("cat file", i)
		}
		out = append(out, call(id, i, "bash", cmd, wire.ToolCompleted))
	}
	return out
}

func failures(id string, first, n int) []wire.Event {
	var out []wire.Event
	for i := first; i < first+n; i++ {
		out = append(out, call(id, i, "read", fmt.Sprint("missing", i), wire.ToolError))
	}
	return out
}

type detectCase struct {
	name  string
	cfg   Config
	steps []step
	want  []string // everything emitted after "session.started ses_a"
	marks string   // the marks ses_a carries at the end, "" for none
}

func runDetect(t *testing.T, cases []detectCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, w, got := run(t, c.cfg, append([]step{start()}, c.steps...))
			if len(got) == 0 || got[0] != "session.started ses_a" {
				t.Fatalf("the run did not start: %q", got)
			}
			if !slices.Equal(got[1:], c.want) {
				t.Errorf("got  %q\nwant %q", got[1:], c.want)
			}
			var kinds []string
			for _, m := range w.Marks("ses_a") {
				kinds = append(kinds, string(m.Kind))
			}
			if s := strings.Join(kinds, ","); s != c.marks {
				t.Errorf("marks %q, want %q", s, c.marks)
			}
		})
	}
}

func TestLoop(t *testing.T) {
	runDetect(t, []detectCase{
		{name: "four in a row is not yet a loop", steps: []step{
			evs(1, calls("ses_a", 1, 4, "grep -r foo")...),
		}},
		{name: "the fifth in a row is", steps: []step{
			evs(1, calls("ses_a", 1, 4, "grep -r foo")...),
			evs(2, calls("ses_a", 5, 1, "grep -r foo")...),
			evs(3, calls("ses_a", 6, 3, "grep -r foo")...), // still the same loop: no second event
		}, want: []string{"runaway.loop ses_a"}, marks: "loop"},
		{name: "five of the last twenty, interleaved", steps: []step{
			evs(1, alternating("ses_a", 1, 8)...),
			evs(2, alternating("ses_a", 9, 1)...),
		}, want: []string{"runaway.loop ses_a"}, marks: "loop"},
		{name: "twenty different calls are work, not a loop", steps: []step{
			evs(1, distinct("ses_a", 1, 20)...),
		}},
		{name: "the same tool with different inputs is not a loop", steps: []step{
			evs(1, distinct("ses_a", 1, 6)...),
		}},
		{name: "the mark clears once the repeats leave the window", steps: []step{
			evs(1, calls("ses_a", 1, 5, "grep -r foo")...),
			evs(2, distinct("ses_a", 6, 20)...),
		}, want: []string{"runaway.loop ses_a"}},
		{name: "--loop 3", cfg: Config{Loop: 3}, steps: []step{
			evs(1, calls("ses_a", 1, 3, "ls")...),
		}, want: []string{"runaway.loop ses_a"}, marks: "loop"},
		{name: "--abort-on loop aborts once", cfg: Config{AbortOn: []Kind{Loop}}, steps: []step{
			evs(1, calls("ses_a", 1, 5, "grep -r foo")...),
			evs(2, calls("ses_a", 6, 5, "grep -r foo")...),
			evs(3, sessErr("ses_a", abortedError), idle("ses_a")),
		}, want: []string{"runaway.loop ses_a", "abort ses_a loop", "session.aborted ses_a"}, marks: "loop"},
		{name: "a pending call whose input is unknown does not count", steps: []step{
			evs(1, calls("ses_a", 1, 4, "grep -r foo")...),
			evs(2, wire.PartUpdated{Part: wire.Part{ID: "prt_0005", SessionID: "ses_a", MessageID: "msg_0001",
				Type: wire.PartTool, Tool: "bash", State: &wire.ToolState{Status: wire.ToolPending}}}),
		}},
	})
}

func TestErrorStorm(t *testing.T) {
	runDetect(t, []detectCase{
		{name: "five failures in a row", steps: []step{
			evs(1, failures("ses_a", 1, 5)...),
		}, want: []string{"runaway.errors ses_a"}, marks: "errors"},
		{name: "four failures, then one that works", steps: []step{
			evs(1, failures("ses_a", 1, 4)...),
			evs(2, distinct("ses_a", 5, 1)...),
			evs(3, failures("ses_a", 6, 4)...),
		}},
		{name: "a success clears the mark", steps: []step{
			evs(1, failures("ses_a", 1, 5)...),
			evs(2, distinct("ses_a", 6, 1)...),
		}, want: []string{"runaway.errors ses_a"}},
		{name: "a running call between failures does not break the run", steps: []step{
			evs(1, failures("ses_a", 1, 4)...),
			evs(2, call("ses_a", 5, "bash", "sleep 60", wire.ToolRunning)),
			evs(3, failures("ses_a", 6, 1)...),
		}, want: []string{"runaway.errors ses_a"}, marks: "errors"},
		{name: "--abort-on errors", cfg: Config{Errors: 2, AbortOn: []Kind{Errors}}, steps: []step{
			evs(1, failures("ses_a", 1, 2)...),
		}, want: []string{"runaway.errors ses_a", "abort ses_a errors"}, marks: "errors"},
	})
}

func TestStall(t *testing.T) {
	runDetect(t, []detectCase{
		{name: "quiet and busy past the limit", steps: []step{
			tick(179), tick(181), tick(200),
		}, want: []string{"runaway.stall ses_a"}, marks: "stall"},
		{name: "speaking again clears it", steps: []step{
			tick(181),
			evs(190, text("ses_a", "prt_t", "thinking done")),
			tick(200),
		}, want: []string{"runaway.stall ses_a"}},
		{name: "a long bash command is not a stall", steps: []step{
			evs(1, call("ses_a", 1, "bash", "make test", wire.ToolRunning)),
			tick(1000),
		}},
		{name: "a subagent at work (its task call runs) is not a stall", steps: []step{
			evs(1, append(run1("ses_b", "ses_a"), call("ses_a", 1, "task", "review", wire.ToolRunning))...),
			evs(500, text("ses_b", "prt_t", "...")),
			tick(600),
		}, want: []string{"session.started ses_b"}},
		{name: "a slow reasoning model streaming is not a stall", steps: []step{
			evs(1, text("ses_a", "prt_t", "hmm")),
			evs(150, delta("ses_a", "prt_t")), evs(300, delta("ses_a", "prt_t")),
			evs(450, delta("ses_a", "prt_t")), tick(600),
		}},
		{name: "waiting on the person is not a stall", steps: []step{
			evs(1, ask("ses_a", "per_1")), tick(1000),
		}, want: []string{"session.waiting ses_a"}},
		{name: "an idle session is never stalled", steps: []step{
			evs(1, finish("ses_a")...), tick(1000),
		}, want: []string{"session.done ses_a"}},
		{name: "no stall while disconnected; the clock restarts at the resync", steps: []step{
			conn(1, wire.Connected), conn(2, wire.Disconnected), tick(300),
			conn(400, wire.Connected), resync(400), tick(500), tick(581),
		}, want: []string{"connection.lost", "connection.restored", "runaway.stall ses_a"}, marks: "stall"},
		{name: "--stall 30s", cfg: Config{Stall: 30 * time.Second}, steps: []step{
			tick(29), tick(31),
		}, want: []string{"runaway.stall ses_a"}, marks: "stall"},
		{name: "--abort-on stall", cfg: Config{AbortOn: []Kind{Stall}}, steps: []step{
			tick(181), tick(182),
		}, want: []string{"runaway.stall ses_a", "abort ses_a stall"}, marks: "stall"},
	})
}

func TestBudget(t *testing.T) {
	runDetect(t, []detectCase{
		{name: "off by default", steps: []step{
			evs(1, spend("ses_a", "msg_0002", 1e9, 1000)),
		}},
		{name: "a session's own tokens", cfg: Config{BudgetTokens: 1000}, steps: []step{
			evs(1, spend("ses_a", "msg_0002", 900, 0)),
			evs(2, spend("ses_a", "msg_0003", 200, 0)),
		}, want: []string{"runaway.budget ses_a"}, marks: "budget"},
		{name: "a session's own cost", cfg: Config{BudgetCost: 0.5}, steps: []step{
			evs(1, spend("ses_a", "msg_0002", 10, 0.75)),
		}, want: []string{"runaway.budget ses_a"}, marks: "budget"},
		{name: "the tree's spend marks the root, not the children", cfg: Config{BudgetTokens: 1000}, steps: []step{
			evs(1, created("ses_b", "ses_a"), created("ses_c", "ses_a")),
			evs(2, spend("ses_b", "msg_0002", 600, 0)),
			evs(3, spend("ses_c", "msg_0002", 600, 0)),
		}, want: []string{"runaway.budget ses_a"}, marks: "budget"},
		{name: "--abort-on budget: the child over its own cap, and the root over the tree's", cfg: Config{BudgetTokens: 1000, AbortOn: []Kind{Budget}}, steps: []step{
			evs(1, run1("ses_b", "ses_a")...),
			evs(2, spend("ses_b", "msg_0002", 1200, 0)),
		}, want: []string{"session.started ses_b", "runaway.budget ses_b", "runaway.budget ses_a",
			"abort ses_b budget", "abort ses_a budget"}, marks: "budget"},
	})
}

// An abort the watchdog asked for names exactly the offending child; its
// sibling and its parent are left alone, and the end says why.
func TestAbortExactlyTheChild(t *testing.T) {
	st, w, got := run(t, Config{AbortOn: []Kind{Loop}}, []step{
		evs(1, join(run1("ses_r", ""), run1("ses_x", "ses_r"), run1("ses_y", "ses_r"))...),
		evs(2, calls("ses_x", 1, 5, "grep -r foo")...),
		evs(3, sessErr("ses_x", abortedError), idle("ses_x")),
	})
	want := []string{"session.started ses_r", "session.started ses_x", "session.started ses_y",
		"runaway.loop ses_x", "abort ses_x loop", "session.aborted ses_x"}
	if !slices.Equal(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	if r := w.AbortReason(st, "ses_x"); r != "aborted by octop: loop" {
		t.Errorf("reason %q", r)
	}
	if r := w.AbortReason(st, "ses_y"); r != "" {
		t.Errorf("sibling has reason %q", r)
	}
}

// TestMarkedCount: the count the header shows follows marks set, cleared
// and deleted with their session (run checks it after every step).
func TestMarkedCount(t *testing.T) {
	steps := []step{evs(1, run1("ses_a", "")...), evs(2, run1("ses_b", "")...),
		evs(3, calls("ses_a", 1, 5, "grep x .")...), evs(4, calls("ses_b", 1, 5, "grep y .")...), tick(500)}
	_, w, _ := run(t, Config{}, steps)
	if w.Marked() != 2 {
		t.Fatalf("Marked() = %d, want 2 (loop and stall on ses_a, loop and stall on ses_b)", w.Marked())
	}
	steps = append(steps, evs(501, wire.SessionDeleted{Info: wire.Session{ID: "ses_a"}}))
	_, w, _ = run(t, Config{}, steps)
	if w.Marked() != 1 {
		t.Fatalf("after ses_a is deleted, Marked() = %d, want 1", w.Marked())
	}
}
