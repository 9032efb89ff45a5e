package ui

import (
	"runtime"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/inflight"
)

// TestHugeTitleIsCutOnce: a 50 MB title (it pinned the screen at full
// CPU, ctrl+c answered after seconds) is cut where the model takes it, so
// what the screen does with it (the tree's rows, the detail, the header,
// the timeline, the filter) follows the screen's size: the whole of it
// allocates less than a tenth of the title.
func TestHugeTitleIsCutOnce(t *testing.T) {
	big := strings.Repeat("a title \x1b[2J with words ", 50<<20/26)
	m := newTestModel(t, 120, 40)
	snap := model.Snapshot{Complete: true, Status: map[string]wire.SessionStatus{}, Sessions: []wire.Session{
		{ID: "ses_a", Title: big, Time: wire.SessionTime{Created: t0, Updated: t0 + 1}},
		{ID: "ses_b", ParentID: "ses_a", Title: big + " (@general subagent)", Time: wire.SessionTime{Created: t0, Updated: t0 + 1}},
	}}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	m = send(t, m, inflight.SnapshotReply{Tag: m.in.Tag(), Snap: snap})
	screens := []string{m.View().Content}
	for _, k := range []string{"down", "tab", "tab", "T", "esc", "/", "title", "enter", "esc"} {
		m = press(t, m, k)
		screens = append(screens, m.View().Content)
	}
	runtime.ReadMemStats(&m1)
	if got := m1.TotalAlloc - m0.TotalAlloc; got > uint64(len(big))/10 {
		t.Errorf("the screen allocated %d MB over a %d MB title", got>>20, len(big)>>20)
	}
	if !strings.Contains(screens[0], "a title ␛[2J with words") || !strings.Contains(screens[1], "ses_b") {
		t.Errorf("the title or the child is not shown:\n%s\n%s", screens[0], screens[1])
	}
}
