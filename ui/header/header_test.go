package header

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
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

// TestSaysWhatIsUnread: the counts say how many histories are loading and
// how many are unread (read only when wanted); a sort or a filter that
// reads what only histories tell says how far along the reading is, and
// stops saying so once every history is read.
func TestSaysWhatIsUnread(t *testing.T) {
	st := styles.New(true, true)
	base := Data{ServerURL: "http://127.0.0.1:4096", ConnKnown: true, Conn: wire.ConnState{State: wire.Connected},
		Counts: model.Counts{Sessions: 50000, Running: 2, Unread: 48990}, Loading: 12, All: model.Counts{Sessions: 50000, Unread: 48990}}
	for _, tt := range []struct {
		name string
		edit func(*Data)
		want string
		not  string
	}{
		{"lazy", func(*Data) {}, "all 50,000 (12 loading, 48,990 unread): 2 running", "sorting"},
		{"sorted by cost", func(d *Data) { d.Sort, d.SortNeedsHistory = "cost", true }, "sort: cost  sorting 1,010 of 50,000 read", ""},
		{"sorted, all read", func(d *Data) {
			d.Sort, d.SortNeedsHistory, d.All.Unread, d.Loading, d.Counts.Unread = "cost", true, 0, 0, 0
		}, "all 50,000: 2 running", "sorting"},
		{"filtered by status", func(d *Data) {
			d.Filtered, d.FilterNeedsHistory, d.Counts = true, true, model.Counts{Sessions: 3, Failed: 1}
		}, "3 matching (12 loading, filtering 1,010 of 50,000 read): 0 running", ""},
		{"filtered by title", func(d *Data) { d.Filtered, d.Counts = true, model.Counts{Sessions: 3} }, "3 matching (12 loading):", "filtering"},
	} {
		d := base
		tt.edit(&d)
		got := ansi.Strip(strings.Join(Lines(st, d, 200), "\n"))
		if !strings.Contains(got, tt.want) || tt.not != "" && strings.Contains(got, tt.not) {
			t.Errorf("%s: header\n%s\nwant %q, not %q", tt.name, got, tt.want, tt.not)
		}
	}
}

// TestSubtreeCostWords: the selection's subtree figure says the cost as
// every surface does: n/a when nothing is priced, a lower bound when some
// replies are unpriced, the sum when all are priced; never a made-up $0.
func TestSubtreeCostWords(t *testing.T) {
	st := styles.New(true, true)
	for _, tt := range []struct {
		sub  model.Counts
		want string
	}{
		{model.Counts{Tokens: 315, Unpriced: 3}, "subtree: 315 tokens · n/a"},
		{model.Counts{Tokens: 315, Cost: 0.0123, Unpriced: 1}, "subtree: 315 tokens · ≥$0.0123"},
		{model.Counts{Tokens: 315, Cost: 0.0123}, "subtree: 315 tokens · $0.0123"},
	} {
		d := Data{ServerURL: "http://127.0.0.1:4096", ConnKnown: true, Conn: wire.ConnState{State: wire.Connected},
			Selected: &model.Session{ID: "ses_a", Title: "fan out"}, Subtree: tt.sub}
		if got := ansi.Strip(strings.Join(Lines(st, d, 160), "\n")); !strings.Contains(got, tt.want) {
			t.Errorf("%+v: header\n%s\nlacks %q", tt.sub, got, tt.want)
		}
	}
}
