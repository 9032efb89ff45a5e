package cli

import (
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/drive"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui"
)

// The screen's size in the test: wide enough for the tree and the
// detail pane side by side, tall enough for every row and the root's
// calls.
const factsWidth, factsHeight = 160, 40

// screenSays is what the screen, opened on the server at the recording's
// end, says of each session (screenReads).
func screenSays(t *testing.T, f factsRecording) []statement {
	srv := f.serve(t, f.end)
	d, _ := newFactsScreen(t, srv, f.end.Sessions[0].Time.Created)
	d.Send(wire.ConnState{State: wire.Connected, Attempt: 1}, wire.ResyncNeeded{})
	d.Advance(time.Duration(f.lastMS()+60_000) * time.Millisecond)
	return screenReads(t, d, f)
}

// liveScreenSays is what the screen says of each session when it watched
// the recording as it happened: it opens on the server before the root
// was made, takes the first stream's events on the recording's clock,
// loses the server where the real one was killed, reads it again when
// it is back (as the restarted one listed it) and takes the second
// stream's events.
func liveScreenSays(t *testing.T, f factsRecording) []statement {
	srv := f.serve(t, client.RESTView{})
	start := f.startMS()
	d, clk := newFactsScreen(t, srv, start)
	d.Send(wire.ConnState{State: wire.Connected, Attempt: 1}, wire.ResyncNeeded{})
	play := func(evs []factsEvent) {
		for i := 0; i < len(evs); {
			j := i
			var batch ui.EventsMsg
			for ; j < len(evs) && evs[j].ms == evs[i].ms; j++ {
				batch = append(batch, evs[j].env)
			}
			if at := time.UnixMilli(start + evs[i].ms); at.After(clk.Now()) {
				d.Advance(at.Sub(clk.Now()))
			}
			d.Send(batch)
			i = j
		}
	}
	play(f.live)
	d.Send(wire.ConnState{State: wire.Disconnected, Err: errors.New("the server was killed"), Attempt: 1})
	show(srv, f.restart)
	d.Advance(time.UnixMilli(start + f.after[0].ms).Sub(clk.Now()))
	d.Send(wire.ConnState{State: wire.Connected, Attempt: 2}, wire.ResyncNeeded{})
	play(f.after)
	d.Advance(time.Minute)
	return screenReads(t, d, f)
}

// newFactsScreen is the screen at the test's size on srv, its clock at
// startMS.
func newFactsScreen(t *testing.T, srv *opencodetest.Server, startMS int64) (*drive.Driver[ui.Model], *drive.Clock) {
	c, err := client.New(client.Options{BaseURL: srv.URL(), Timeout: testwait.Scale(10 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	clk := drive.NewClock(t, time.UnixMilli(startMS))
	// Init starts the screen's clock tick, which tells the model the time:
	// a run that stopped without a word settles once its grace is over.
	d := drive.New(t, ui.New(ui.Options{Server: live.New(c), ServerURL: srv.URL(), Clock: clk.Now, Timer: clk, NoColor: true}), clk).Init()
	d.Send(tea.WindowSizeMsg{Width: factsWidth, Height: factsHeight})
	return d, clk
}

// screenReads reads the screen: each row (its mark and elapsed time),
// the detail pane of each session in turn (state, time, cost, reason,
// calls), the header (the selection's subtree cost, the failed count)
// and, for each filter line of the table, the rows it keeps.
func screenReads(t *testing.T, d *drive.Driver[ui.Model], f factsRecording) []statement {
	ids := titleIDs(t, f)
	said := in("row", rowsSay(t, d.Screen(), ids))
	for range f.end.Sessions {
		said = append(said, detailSays(t, d.Screen(), ids)...)
		d.Press("j")
	}
	if m := regexp.MustCompile(`all \d+: .* (\d+) failed`).FindStringSubmatch(d.Screen()); m != nil {
		said = append(said, in("header", []statement{says("", factBadCount, word(m[1]))})...)
	}
	return append(said, filtersSay(t, d, f, ids)...)
}

// titleIDs maps each title of the table to its session's id.
func titleIDs(t *testing.T, f factsRecording) map[string]string {
	ids := map[string]string{}
	for _, e := range factsTable {
		ids[e.title] = byTitle(t, f.end, e.title).ID
	}
	return ids
}

// whose is the session a row or a detail pane's first line names.
func whose(text string, ids map[string]string) string {
	for title, id := range ids {
		if strings.HasPrefix(text, title+" ") {
			return id
		}
	}
	return ""
}

// panes splits the screen's lines below the header into the tree's and
// the detail pane's.
func panes(screen string) (tree, detail []string) {
	lines := strings.Split(screen, "\n")
	for _, l := range lines[2 : len(lines)-1] {
		left, right, _ := strings.Cut(l, "│")
		tree = append(tree, strings.TrimRight(left, " "))
		detail = append(detail, strings.TrimRight(right, " "))
	}
	return tree, detail
}

// stateMarks are the screen's state marks as end words (format.StateMark).
var stateMarks = map[string]string{"✓": "complete", "✗": "failed", "■": "aborted", "⊘": "interrupted",
	"⊖": "denied", "○": "idle", "◔": "running", "↻": "running", "?": "running", "…": "not loaded"}

// callMarks are its call marks as outcomes (format.ToolMark).
var callMarks = map[string]string{"✓": "completed", "✗": "error", "■": "aborted", "⊘": "interrupted", "·": "pending"}

// rowTitle is a row without its guides: its mark, then the rest.
func rowTitle(row string) (mark, rest string) {
	row = strings.TrimLeft(row, "▾▸├└─│ ")
	mark, rest, _ = strings.Cut(row, " ")
	return mark, rest
}

// rowsSay reads each row: its mark (the state) and elapsed time (the
// duration of a session that has stopped).
func rowsSay(t *testing.T, screen string, ids map[string]string) []statement {
	tree, _ := panes(screen)
	var said []statement
	for _, row := range tree {
		mark, rest := rowTitle(row)
		id := whose(rest, ids)
		if id == "" {
			continue
		}
		fields := strings.Fields(rest)
		said = append(said, says(id, factState, word(markWord(stateMarks, mark))),
			says(id, factDuration, shownDuration(t, fields[len(fields)-1])))
	}
	return said
}

func markWord(marks map[string]string, mark string) string {
	if w, ok := marks[mark]; ok {
		return w
	}
	return "running" // the spinner
}

// detailSays reads the detail pane of the selected session.
func detailSays(t *testing.T, screen string, ids map[string]string) []statement {
	_, detail := panes(screen)
	id := whose(detail[0], ids)
	if id == "" {
		t.Fatalf("the detail pane names no session of the table:\n%s", screen)
	}
	var said []statement
	calls, inCalls := map[string]int{}, false
	for _, l := range detail[1:] {
		key, val, _ := strings.Cut(l, "  ")
		switch {
		case strings.HasPrefix(l, "── tool calls"):
			inCalls = true
		case strings.HasPrefix(l, "──"):
			inCalls = false
		case inCalls && l != "" && l != "none yet":
			mark, _, _ := strings.Cut(l, " ")
			calls[markWord(callMarks, mark)]++
		case key == "status":
			_, rest, _ := strings.Cut(strings.TrimSpace(val), " ")
			state, took, _ := strings.Cut(rest, " · ")
			took, _, _ = strings.Cut(took, " · ")
			said = append(said, says(id, factState, word(state)), says(id, factDuration, shownDuration(t, took)))
		case key == "tokens":
			_, cost, _ := strings.Cut(val, " · ")
			said = append(said, shownCost(id, strings.TrimSpace(cost), factCost, factSpent)...)
		case key == "reason":
			said = append(said, says(id, factDetail, word(strings.TrimSpace(val))))
		}
	}
	said = in("detail", append(said, says(id, factCalls, word(callWords(calls)))))
	header := strings.Split(screen, "\n")[1]
	if _, cost, ok := strings.Cut(header, " tokens · "); ok {
		cost, _, _ = strings.Cut(cost, " ")
		said = append(said, in("header", shownCost(id, cost, factSubtreeCost, factSubtreeSpent))...)
	}
	return said
}

// shownDuration is the window a duration as the screen draws it
// (format.Duration, truncated) puts the time in, in ms.
func shownDuration(t *testing.T, s string) claim {
	m := regexp.MustCompile(`^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)(?:\.(\d))?s)?$`).FindStringSubmatch(s)
	if m == nil || s == "" {
		return word("not a duration: " + s)
	}
	n := func(i int) float64 { v, _ := strconv.Atoi(m[i]); return float64(v) }
	ms := n(1)*3_600_000 + n(2)*60_000 + n(3)*1000 + n(4)*100
	step := 1000.0
	switch {
	case m[4] != "":
		step = 100
	case m[1] != "":
		step = 60_000
	}
	c := numbers(window{ms, ms + step})
	c.shown = s
	return c
}

// shownCost reads a cost as the screen draws it: "$0.0010" (known),
// "≥$0.0010" (some replies unpriced) or "n/a" (none priced).
func shownCost(id, s string, cost, spent fact) []statement {
	if s == "n/a" {
		return []statement{says(id, cost, word("unpriced")), says(id, spent, word("n/a"))}
	}
	kind := "priced"
	if rest, ok := strings.CutPrefix(s, "≥"); ok {
		kind, s = "partly", rest
	}
	v, err := strconv.ParseFloat(strings.TrimPrefix(s, "$"), 64)
	if err != nil || !strings.HasPrefix(s, "$") {
		return []statement{says(id, spent, word("not a cost: "+s))}
	}
	half := 0.00005
	if !strings.Contains(s, ".") || len(s)-strings.Index(s, ".") == 3 {
		half = 0.005
	}
	c := numbers(window{v - half, math.Nextafter(v+half, math.Inf(1))})
	c.shown = s
	return []statement{says(id, cost, word(kind)), says(id, spent, c)}
}

// filtersSay types each filter line of the table and reads which rows it
// keeps. A row shows for a match or for an ancestor of one; the header
// counts the matches, which tells whether the root is one.
func filtersSay(t *testing.T, d *drive.Driver[ui.Model], f factsRecording, ids map[string]string) []statement {
	lines := map[string]bool{}
	for _, e := range factsTable {
		for _, m := range e.matches {
			lines[strings.ReplaceAll(m, "<id>", ids[e.title])] = true
		}
	}
	root := ids[tRoot]
	var said []statement
	for line := range lines {
		d.Press("/", "ctrl+u").Type(line).Press("enter")
		screen := d.Screen()
		kept := map[string]bool{}
		tree, _ := panes(screen)
		for _, row := range tree {
			if _, rest := rowTitle(row); whose(rest, ids) != "" {
				kept[whose(rest, ids)] = true
			}
		}
		m := regexp.MustCompile(`(\d+) matching:`).FindStringSubmatch(screen)
		if m == nil {
			t.Fatalf("filter %q: the header says nothing of the matches:\n%s", line, screen)
		}
		if n, _ := strconv.Atoi(m[1]); kept[root] && n == len(kept)-1 {
			kept[root] = false
		}
		for _, id := range ids {
			w := "left out"
			if kept[id] {
				w = "kept"
			}
			said = append(said, says(id, filterFact(line), word(w)))
		}
	}
	d.Press("esc")
	return said
}
