package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/wire"
)

// TestTUITranscript opens, in a real terminal, the transcript of a
// grandchild while it runs: its bash calls show with their real output,
// the tail brings in what the session says next without reopening, and
// from its parent's transcript enter on the task call opens the same
// child. On 1.18.33 and 1.1.65.
func TestTUITranscript(t *testing.T) {
	tuiRequireTmux(t)
	for _, v := range harness.Versions() {
		t.Run(v, func(t *testing.T) {
			t.Parallel() // each version on a server of its own
			s := harness.Shared(t, v)
			ctx := actCtxFor(t)
			c := actNewClient(t, s)
			defer actStopAll(c)
			tag := fmt.Sprintf("tx%d", time.Now().UnixNano()%1e6)
			// root ── mid (deep) ── leaf (general): three bash steps of 2 s.
			leafScript := `FANOUT k=1 agent=general desc=` + tag + `leaf child="LEAF steps=3 sleep=2"`
			root := actStartRoot(t, ctx, c, "octop e2e transcript "+tag,
				fmt.Sprintf("FANOUT k=1 agent=deep desc=%smid child=%q", tag, leafScript))

			tm := tuiStart(t, 160, 48, "--server", s.URL)
			tm.waitFor("the grandchild in the tree", func(sc string) bool { return strings.Contains(sc, tag+"leaf 1 @general") })
			// Filter to it (its ancestors stay above it), select it, open it.
			tm.actSend("/")
			tm.actType(tag + "leaf")
			tm.actSend("Enter", "G")
			tm.waitFor("the grandchild selected", func(sc string) bool { return strings.Contains(actHeader(sc), tag+"leaf 1") })
			tm.actSend("t")
			sc := tm.waitFor("the first bash call and its output, live", func(sc string) bool {
				return strings.Contains(sc, "● live") && strings.Contains(sc, "⟩ bash: sleep 2; echo step 1") &&
					strings.Contains(sc, "    step 1")
			})
			if !strings.HasPrefix(strings.TrimSpace(sc), "transcript") {
				t.Fatalf("not the transcript:\n%s", sc)
			}
			tm.waitFor("the tail to bring in the end of the run", func(sc string) bool {
				return strings.Contains(sc, "    step 3") && strings.Contains(sc, "leaf finished after 3 steps") &&
					!strings.Contains(sc, "● live")
			})

			// The parent's transcript: search the task call, enter opens
			// the child's transcript; backspace goes back.
			// Escape alone: ESC then k in one write reads as alt+k.
			tm.actSend("Escape")
			tm.waitFor("the tree again", func(sc string) bool { return strings.Contains(sc, "● connected") })
			tm.actSend("k")
			tm.waitFor("the mid session selected", func(sc string) bool { return strings.Contains(actHeader(sc), tag+"mid 1") })
			tm.actSend("t")
			tm.waitFor("the parent's task call naming its child", func(sc string) bool {
				return strings.Contains(sc, "⟩ task: "+tag+"leaf 1 → ses_")
			})
			tm.actSend("/")
			tm.actType(tag + "leaf 1")
			tm.actSend("Enter", "Enter") // the search lands on the task call; enter opens it
			tm.waitFor("the child's transcript from the task call", func(sc string) bool {
				return strings.Contains(sc, "⟩ bash: sleep 2; echo step 2") && strings.Contains(sc, "    step 2") &&
					strings.Contains(sc, "⌫ parent")
			})
			tm.actSend("BSpace")
			tm.waitFor("back in the parent's transcript", func(sc string) bool {
				return strings.Contains(sc, "⟩ task: "+tag+"leaf 1 → ses_") && !strings.Contains(sc, "⌫ parent")
			})
			actWaitRun(t, ctx, c, root.ID, wire.StatusIdle)
		})
	}
}
