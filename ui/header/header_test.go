package header

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/styles"
)

// TestNoticeLeavesTheConnectionState: at 80 columns and fewer the bell's
// notice is cut (then the version goes, then the address is cut) before
// the connection state is: it stays whole.
func TestNoticeLeavesTheConnectionState(t *testing.T) {
	st := styles.New(true, true)
	for _, tt := range []struct {
		width  int
		follow bool
		want   []string
	}{
		{80, false, []string{"OpenCode 1.18.33", "● connected", "🔔 done: deep"}},
		{80, true, []string{"● connected", "🔔 done", "[follow]"}},
		{60, true, []string{"octop  http://", "● connected", "🔔 done", "[follow]"}},
		{160, false, []string{"OpenCode 1.18.33", "● connected", "🔔 done: deep fan (+10 more)"}},
	} {
		d := Data{ServerURL: "http://127.0.0.1:4096", Version: "1.18.33", ConnKnown: true, Follow: tt.follow,
			Conn: wire.ConnState{State: wire.Connected}, Notice: "done: deep fan (+10 more)"}
		line := ansi.Strip(Lines(st, d, tt.width)[0])
		if w := ansi.StringWidth(line); w != tt.width {
			t.Errorf("%d columns: the line is %d wide: %q", tt.width, w, line)
		}
		for _, want := range tt.want {
			if !strings.Contains(line, want) {
				t.Errorf("%d columns, follow %v: %q lacks %q", tt.width, tt.follow, line, want)
			}
		}
	}
}
