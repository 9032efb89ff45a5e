package timeline

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

func build(evs ...wire.Event) *model.State {
	s := model.New()
	for _, ev := range evs {
		s.Apply(ev)
	}
	return s
}

func created(id, parent string, at int64) wire.Event {
	return wire.SessionCreated{Info: wire.Session{ID: id, ParentID: parent, Title: id, Time: wire.SessionTime{Created: at, Updated: at}}}
}

// base keeps times away from 0, which means "never ran".

func run(id string, start, end int64) []wire.Event {
	start += base
	if end != 0 {
		end += base
	}
	evs := []wire.Event{
		wire.MessageUpdated{Info: wire.Message{ID: "u" + id, SessionID: id, Role: "user", Time: wire.MessageTime{Created: start}}},
		wire.MessageUpdated{Info: wire.Message{ID: "v" + id, SessionID: id, Role: "assistant", Time: wire.MessageTime{Created: start, Completed: end}}},
	}
	if end == 0 {
		return append(evs, wire.SessionStatusChanged{SessionID: id, Status: wire.SessionStatus{Type: "busy"}})
	}
	return append(evs, wire.SessionStatusChanged{SessionID: id, Status: wire.SessionStatus{Type: "idle"}})
}

// root runs 0-100 s; child a 10-40 s; child b 10-90 s with grandchild
// b1 20-85 s; child c never ran.
func layoutFanout() *model.State {
	evs := []wire.Event{created("r", "", 0), created("a", "r", 1), created("b", "r", 2), created("b1", "b", 3), created("c", "r", 4)}
	evs = append(evs, run("r", 0, 100_000)...)
	evs = append(evs, run("a", 10_000, 40_000)...)
	evs = append(evs, run("b", 10_000, 90_000)...)
	evs = append(evs, run("b1", 20_000, 85_000)...)
	return build(evs...)
}

func draw(c Chart) string {
	var b strings.Builder
	for _, bar := range c.Bars {
		mark := " "
		if bar.Critical {
			mark = "*"
		}
		line := []rune(strings.Repeat(" ", c.Width))
		for _, cols := range bar.Cols {
			for i := cols[0]; i < cols[1]; i++ {
				line[i] = '='
			}
		}
		fmt.Fprintf(&b, "%s%-3s|%s|\n", mark, bar.ID, string(line))
	}
	scale := []rune(strings.Repeat(" ", c.Width+8))
	for _, t := range c.Ticks {
		copy(scale[t.Col+4:], []rune(t.Label))
	}
	b.WriteString(strings.TrimRight(string(scale), " ") + "\n")
	return b.String()
}

func TestLayoutAndCriticalPath(t *testing.T) {
	got := draw(Layout(Spans(layoutFanout(), "r"), base+200_000, 20))
	want := `*r  |====================|
 a  |  ======            |
*b  |  ================  |
*b1 |    =============   |
 c  |                    |
    0s          1m
`
	if got != want {
		t.Errorf("chart:\n%s\nwant:\n%s", got, want)
	}
}

// A running child ends "now": it holds its running parent up and its bar
// reaches the right edge.
func TestRunningChildIsCritical(t *testing.T) {
	st := layoutFanout()
	for _, ev := range append(run("r", 0, 0), run("a", 10_000, 0)...) {
		st.Apply(ev)
	}
	c := Layout(Spans(st, "r"), base+120_000, 12)
	a := c.Bars[1]
	if a.ID != "a" || !a.Critical || a.End != 0 || a.To != 12 {
		t.Errorf("running child: %+v", a)
	}
	if c.Bars[2].Critical {
		t.Errorf("b is on the critical path beside a running a: %+v", c.Bars[2])
	}
}

func TestLabels(t *testing.T) {
	for ms, want := range map[int64]string{0: "0s", 45_000: "45s", 120_000: "2m", 150_000: "2m30s", 3_600_000: "1h", 5_400_000: "1h30m"} {
		if got := label(ms); got != want {
			t.Errorf("label(%d) = %q, want %q", ms, got, want)
		}
	}
}

// A root that launched a background task and went idle runs on while the
// child runs; the child's bar is its run, on the critical path.
func TestBackgroundChildRunsOn(t *testing.T) {
	evs := []wire.Event{created("r", "", 0), created("ses_k", "r", 3_000+base)}
	evs = append(evs, run("r", 0, 5_000)...)
	evs = append(evs, run("ses_k", 4_000, 0)...)
	evs = append(evs, wire.PartUpdated{Part: wire.Part{ID: "p1", SessionID: "r", MessageID: "vr", Type: wire.PartTool, Tool: "task",
		State: &wire.ToolState{Status: "completed", Metadata: []byte(`{"sessionId":"ses_k","background":true}`),
			Output: `<task id="ses_k" state="running">`, Time: wire.ToolTime{Start: base + 2_000, End: base + 2_100}}}})
	st := build(evs...)
	spans := Spans(st, "r")
	if len(spans) != 2 {
		t.Fatalf("%d spans", len(spans))
	}
	if spans[0].Kind != model.KindBackground || spans[0].End != 0 {
		t.Errorf("root %+v: want waiting on its background task, running on (End 0)", spans[0])
	}
	if spans[1].Start != base+4_000 || spans[1].End != 0 || !spans[1].Critical {
		t.Errorf("child %+v: want it from its run at %d, running, on the critical path", spans[1], base+4_000)
	}
}

// TestResumedRunsLeaveTheGapBlank: a child resumed by hand long after its
// first run is drawn over its two runs, the idle time between blank.
func TestResumedRunsLeaveTheGapBlank(t *testing.T) {
	evs := []wire.Event{created("r", "", 0), created("k", "r", 1)}
	evs = append(evs, run("r", 0, 20_000)...)
	evs = append(evs, run("k", 5_000, 15_000)...)
	evs = append(evs,
		wire.MessageUpdated{Info: wire.Message{ID: "wk", SessionID: "k", Role: "user", Time: wire.MessageTime{Created: base + 80_000}}},
		wire.MessageUpdated{Info: wire.Message{ID: "xk", SessionID: "k", Role: "assistant", Time: wire.MessageTime{Created: base + 80_000, Completed: base + 100_000}}})
	got := draw(Layout(Spans(build(evs...), "r"), base+200_000, 20))
	want := `*r  |====                |
 k  | ==             ====|
    0s          1m
`
	if got != want {
		t.Errorf("chart:\n%s\nwant:\n%s", got, want)
	}
}

// The ◆ path follows the child its parent waited on (b, which ended just
// before r), not a's subtree, which grew after r had ended: a child
// launched under a later (a2, 150-200 s) held nobody up.
func TestCriticalPathIgnoresLaterGrowth(t *testing.T) {
	st := layoutFanout()
	evs := append([]wire.Event{created("a2", "a", 150_000)}, run("a2", 150_000, 200_000)...)
	for _, ev := range evs {
		st.Apply(ev)
	}
	crit := map[string]bool{}
	for _, sp := range Spans(st, "r") {
		crit[sp.ID] = sp.Critical
	}
	if !crit["b"] || !crit["b1"] || crit["a"] || crit["a2"] {
		t.Errorf("critical: %v, want r, b, b1 only", crit)
	}
}

// A run cut short (a crash: no reply completed, a call left running)
// spans until its last activity, not one cell: here the root, cut off
// while it waited on its child, until the child's last call began.
func TestCutShortRunSpansItsActivity(t *testing.T) {
	evs := []wire.Event{created("r", "", base), created("k", "r", base+1_000)}
	open := func(id string, start, last int64) []wire.Event {
		return []wire.Event{
			wire.MessageUpdated{Info: wire.Message{ID: "u" + id, SessionID: id, Role: "user", Time: wire.MessageTime{Created: base + start}}},
			wire.MessageUpdated{Info: wire.Message{ID: "v" + id, SessionID: id, Role: "assistant", Time: wire.MessageTime{Created: base + start}}},
			wire.PartUpdated{Part: wire.Part{ID: "p" + id, SessionID: id, MessageID: "v" + id, Type: wire.PartTool, Tool: "bash",
				State: &wire.ToolState{Status: "running", Time: wire.ToolTime{Start: base + last}}}},
			wire.SessionStatusChanged{SessionID: id, Status: wire.SessionStatus{Type: "idle"}},
		}
	}
	evs = append(evs, open("r", 0, 500)...)
	evs = append(evs, open("k", 1_000, 44_614)...)
	c := Layout(Spans(build(evs...), "r"), base+100_000, 20)
	if r := c.Bars[0]; r.End != base+44_614 || r.To-r.From < 19 {
		t.Errorf("the cut-short root: %+v, want it to end at its child's last call and span the chart", r)
	}
}

// TestTicksFollowTheWidth: the scale has at most width/8+1 ticks
// whatever the times (a session whose times reached the year 9999 built
// 35 million a frame), and bars stay on the chart for any time a server
// sends, negative or past the year 9999.
func TestTicksFollowTheWidth(t *testing.T) {
	const year9999 = 253402300799000
	cases := map[string][]Span{
		"to the year 9999":   {{ID: "r", Start: base, End: year9999}, {ID: "a", Start: base + 1000, End: base + 2000}},
		"running since 1970": {{ID: "r", Start: 1, End: 0}},
		"extremes": {{ID: "r", Start: math.MinInt64, End: math.MaxInt64}, {ID: "a", Start: math.MaxInt64, End: 0},
			{ID: "b", Start: -5, End: math.MinInt64 + 1}},
	}
	for name, spans := range cases {
		for _, width := range []int{1, 9, 40, 200} {
			c := Layout(spans, base+60_000, width)
			if len(c.Ticks) > width/8+1 {
				t.Errorf("%s at width %d: %d ticks", name, width, len(c.Ticks))
			}
			for _, b := range c.Bars {
				if b.From < 0 || b.To > width || b.From >= b.To {
					t.Errorf("%s at width %d: bar %s at [%d, %d)", name, width, b.ID, b.From, b.To)
				}
			}
			for _, tk := range c.Ticks {
				if tk.Col < 0 || tk.Col > width {
					t.Errorf("%s at width %d: a tick at column %d", name, width, tk.Col)
				}
			}
			m := New("r", styles.New(true, true))
			m.SetSize(width+14, 6)
			m.SetData(spans, base+60_000)
			if lines := strings.Split(m.View(), "\n"); len(lines) != 6 {
				t.Errorf("%s at width %d: %d lines drawn", name, width, len(lines))
			}
		}
	}
}
