package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// widthTitles are titles holding characters whose width terminals
// disagree on (a soft hyphen, an emoji made so by VS16, a skin-tone
// modifier, a family joined by ZWJ, a word joiner, a tag), each after a
// word the test finds its row by; ref is a title of plain letters.
var widthTitles = []string{
	"ref plain title here",
	"shy soft\u00adhyphen\u00adated words",
	"vs love ❤\ufe0f and ☺\ufe0f and 1\ufe0f\u20e3",
	"tone thumbs 👍🏽 up 👋🏿",
	"zwj family 👨\u200d👩\u200d👧 here",
	"joiner word\u2060joined\u200bzero",
}

// TestTUIWidthsKeepColumns: octop in tmux at 40, 60 and 160 columns over
// sessions whose titles hold characters terminals count differently.
// Every such row must take as many cells in tmux as the plain one: its
// elapsed time ends in the last column (at 60 columns a soft hyphen drew
// "20s" as "s") and, where the detail pane stands beside the tree, its
// border is in the same column (at 160 it moved). tmux itself measures
// each row, in a pane that echoes what it is sent.
func TestTUIWidthsKeepColumns(t *testing.T) {
	parallel(t)
	tuiRequireTmux(t)
	srv := opencodetest.New(t, opencodetest.Options{})
	at := time.Now().Add(-time.Minute).UnixMilli()
	for i, title := range widthTitles {
		srv.AddSession(wire.Session{ID: fmt.Sprintf("ses_width%d", i), Title: title, Agent: "build",
			Time: wire.SessionTime{Created: at, Updated: at + 20_000}})
	}
	for _, width := range []int{40, 60, 160} {
		t.Run(strconv.Itoa(width), func(t *testing.T) {
			tm := tuiStart(t, width, 30, "--server", srv.URL())
			sc := tm.waitFor("every session in the tree, with its elapsed time", func(sc string) bool {
				for _, title := range widthTitles {
					if !strings.HasSuffix(tree(rowOf(sc, strings.Fields(title)[0]+" ")), "s") {
						return false
					}
				}
				return true
			})
			m := newCellMeter(t, tm)
			ref := rowOf(sc, "ref plain")
			refEnd, refBorder := m.cells(tree(ref)), m.border(ref)
			if !strings.HasSuffix(tree(ref), "0s") || (refBorder < 0 && refEnd != width) {
				t.Fatalf("the plain row does not end in its elapsed time at cell %d of %d: %q", refEnd, width, ref)
			}
			for _, title := range widthTitles[1:] {
				word := strings.Fields(title)[0]
				row := rowOf(sc, word+" ")
				if end := m.cells(tree(row)); end != refEnd {
					t.Errorf("%s: the row ends at cell %d in tmux, the plain one at %d:\n%q\n%q", word, end, refEnd, row, ref)
				}
				if b := m.border(row); b != refBorder {
					t.Errorf("%s: the border is at cell %d in tmux, the plain row's at %d:\n%q\n%q", word, b, refBorder, row, ref)
				}
			}
		})
	}
}

// tree is a row's part in the tree pane: up to the border, if any,
// without the spaces after it.
func tree(row string) string {
	if i := strings.Index(row, "│"); i >= 0 {
		row = row[:i]
	}
	return strings.TrimRight(row, " ")
}

// cellMeter measures text as tmux lays it out: in a pane of its own that
// echoes what it is sent (cat, raw), where the cursor stops after it.
type cellMeter struct {
	t  *testing.T
	tm *tuiTerm
	n  int // measurements made: each ends in a mark of its own
}

func newCellMeter(t *testing.T, tm *tuiTerm) *cellMeter {
	t.Helper()
	if out, err := tm.run("new-session", "-d", "-s", "meter", "-x", "400", "-y", "3", "stty raw -echo; exec cat"); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	// Keys sent before stty has run would be echoed in cooked mode, an
	// escape as ^[: the pane is ready once cat runs.
	testwait.Eventually(t, func() bool {
		out, _ := tm.run("display-message", "-p", "-t", "meter", "#{pane_current_command}")
		return strings.TrimSpace(out) == "cat"
	}, tuiWait, "the meter's cat to run")
	return &cellMeter{t: t, tm: tm}
}

// cells is how many cells s takes in tmux: sent after a carriage return
// and an erase of the line, followed by a mark no earlier measurement
// wrote, the cursor's column once the mark shows, less the mark's.
func (m *cellMeter) cells(s string) int {
	m.t.Helper()
	m.n++
	end := fmt.Sprintf("#%d#", m.n)
	if out, err := m.tm.run("send-keys", "-t", "meter", "-l", "\r\x1b[2K"+s+end); err != nil {
		m.t.Fatalf("tmux send-keys: %v\n%s", err, out)
	}
	var x int
	testwait.Eventually(m.t, func() bool {
		sc, _ := m.tm.run("capture-pane", "-p", "-t", "meter")
		if !strings.Contains(sc, end) {
			return false
		}
		out, err := m.tm.run("display-message", "-p", "-t", "meter", "#{cursor_x}")
		x, _ = strconv.Atoi(strings.TrimSpace(out))
		return err == nil
	}, tuiWait, "tmux to echo %q", s)
	return x - len(end)
}

// border is the cell of row's first pane border (│) in tmux, or -1.
func (m *cellMeter) border(row string) int {
	i := strings.Index(row, "│")
	if i < 0 {
		return -1
	}
	return m.cells(row[:i])
}
