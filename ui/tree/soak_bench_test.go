package tree

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

// soakEvent is one synthetic event at its time in the run (Unix ms).
type soakEvent struct {
	at int64
	ev wire.Event
}

// soakWorkload is minutes of a steady fan-out workload: every minute a
// root starts 8 children that each run 10 bash calls (2 KB of output
// each), and a fan-out is deleted 5 minutes after it started, so the live
// tree stays about 5 fan-outs (45 sessions, 400 calls) however long it
// runs: what grows from there is a leak.
func soakWorkload(t0 int64, minutes int) []soakEvent {
	var out []soakEvent
	add := func(at int64, ev wire.Event) { out = append(out, soakEvent{at, ev}) }
	output := strings.Repeat("ok ", 700)
	for m := range minutes {
		start := t0 + int64(m)*60_000
		root := fmt.Sprintf("ses_root%04d", m)
		info := func(id, parent, title string, at int64) wire.Session {
			return wire.Session{ID: id, ParentID: parent, Title: title, Time: wire.SessionTime{Created: at, Updated: at}}
		}
		ids := []wire.Session{info(root, "", fmt.Sprintf("soak root %d", m), start)}
		add(start, wire.SessionCreated{Info: ids[0]})
		add(start, wire.SessionStatusChanged{SessionID: root, Status: wire.SessionStatus{Type: wire.StatusBusy}})
		for k := range 8 {
			kid := fmt.Sprintf("%s_k%d", root, k)
			at := start + 1000
			ids = append(ids, info(kid, root, fmt.Sprintf("worker %d (@general subagent)", k), at))
			add(at, wire.SessionCreated{Info: ids[len(ids)-1]})
			add(at, wire.SessionStatusChanged{SessionID: kid, Status: wire.SessionStatus{Type: wire.StatusBusy}})
			for s := range 10 {
				at := start + 2000 + int64(s)*5000 + int64(k)*100
				msg := fmt.Sprintf("msg_%s_%02d", kid, s)
				part := fmt.Sprintf("prt_%s_%02d", kid, s)
				cmd := fmt.Sprintf(`{"command":"sleep 4; echo step %d"}`, s)
				add(at, soakTool(kid, msg, part, wire.ToolRunning, cmd, "", at, 0))
				add(at+4000, soakTool(kid, msg, part, wire.ToolCompleted, cmd, output, at, at+4000))
			}
			add(start+55_000, wire.SessionStatusChanged{SessionID: kid, Status: wire.SessionStatus{Type: wire.StatusIdle}})
		}
		add(start+56_000, wire.SessionStatusChanged{SessionID: root, Status: wire.SessionStatus{Type: wire.StatusIdle}})
		for _, s := range ids {
			add(start+300_000, wire.SessionDeleted{Info: s})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].at < out[j].at })
	return out
}

func soakTool(sess, msg, part, status, input, output string, start, end int64) wire.Event {
	st := &wire.ToolState{Status: status, Input: json.RawMessage(input), Output: output, Title: "step"}
	st.Time.Start, st.Time.End = start, end
	return wire.PartUpdated{Part: wire.Part{ID: part, SessionID: sess, MessageID: msg, Type: wire.PartTool,
		Tool: "bash", CallID: "call_" + part, State: st}}
}

// BenchmarkSoak replays 30 minutes of soakWorkload into a state and a
// 200x50 tree pane, drawing a frame every 100 ms of the run's clock (as
// fast as the machine goes: far faster than 20x), and compares the live
// heap after 5 and after 30 minutes. It fails if the heap grew by more
// than 10% (make bench-soak).
func BenchmarkSoak(b *testing.B) {
	const t0 = int64(1_700_000_000_000)
	evs := soakWorkload(t0, 30)
	for b.Loop() {
		st := model.New()
		m := New(styles.New(true, false))
		m.SetSize(200, 50)
		m.SetState(st)
		spins := []string{"⠋", "⠙", "⠹", "⠸"}
		var at5 uint64
		next := 0
		for now, frame := t0, 0; now <= t0+30*60_000; now, frame = now+100, frame+1 {
			for next < len(evs) && evs[next].at <= now {
				st.Apply(evs[next].ev)
				next++
			}
			m.Sync()
			m.SetClock(now, spins[frame%len(spins)])
			_ = m.View()
			if now == t0+5*60_000 {
				at5 = liveHeap()
			}
		}
		at30 := liveHeap()
		runtime.KeepAlive(&m)
		b.ReportMetric(float64(at5)/(1<<20), "heap-MB@5min")
		b.ReportMetric(float64(at30)/(1<<20), "heap-MB@30min")
		growth := float64(at30)/float64(at5) - 1
		b.ReportMetric(100*growth, "growth-%")
		if growth > 0.10 {
			b.Errorf("live heap grew %.1f%% from minute 5 (%.2f MB) to minute 30 (%.2f MB); the bound is 10%%",
				100*growth, float64(at5)/(1<<20), float64(at30)/(1<<20))
		}
	}
}

func liveHeap() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
