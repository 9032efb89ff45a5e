package tree

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

// TestRefreshOfADeepChain: a chain of sessions far deeper than the stack
// could hold a call per level (a hostile server's) is walked, expanded
// and drawn with the stack held to 8 MiB, in memory linear in its length
// (each row kept a copy of its whole path: 5 GB for this chain), and its
// deepest row draws its nearest levels after "… ".
func TestRefreshOfADeepChain(t *testing.T) {
	const n = 100_000
	sessions := make([]wire.Session, n)
	for i := range sessions {
		sessions[i] = wire.Session{ID: fmt.Sprintf("ses_%06d", i), Title: "step", Time: wire.SessionTime{Created: int64(i + 1)}}
		if i > 0 {
			sessions[i].ParentID = sessions[i-1].ID
		}
	}
	st := model.New()
	st.ApplySnapshot(model.Snapshot{Sessions: sessions, Complete: true})
	defer debug.SetMaxStack(debug.SetMaxStack(8 << 20))
	m := New(styles.New(true, true))
	m.SetSize(80, 10)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m.SetState(st)
	runtime.ReadMemStats(&after)
	if got := len(m.Rows()); got != n {
		t.Fatalf("%d rows, want every one of the %d sessions, expanded", got, n)
	}
	if a := after.TotalAlloc - before.TotalAlloc; a > 200<<20 {
		t.Errorf("flattening a chain of %d allocated %d MB, want under 200", n, a>>20)
	}
	g, cells := guides(m.Rows()[n-1])
	if !strings.HasPrefix(g, "… ") || cells != 2*model.MaxGuides+4 {
		t.Errorf("the deepest row's guides are %d cells, %q…; want \"… \" and %d levels", cells, g[:min(len(g), 20)], model.MaxGuides)
	}
	if v := m.View(); v == "" {
		t.Error("nothing drawn")
	}
}

// TestGuidesWithinTheLimit: a row no deeper than the guides it keeps
// draws one column per ancestor, with no "… ".
func TestGuidesWithinTheLimit(t *testing.T) {
	r := model.Row{Depth: 3, Guides: []bool{false, true, false}, Last: true}
	if g, cells := guides(r); g != "│   └─" || cells != 6 {
		t.Errorf("guides = %q, %d", g, cells)
	}
}
