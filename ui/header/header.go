// Package header draws the screen's two header lines: where octop is
// connected (server, OpenCode version, connection state or the countdown
// to the next attempt, follow), then an error, or the selected session
// with its subtree's tokens and cost, and the counts of running, waiting,
// failed and runaway sessions; the last notification until it is seen.
// It has no keys and no state of its own: the root hands it a Data each
// frame.
package header

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/styles"
)

// Height is the header's two lines.
const Height = 2

// Data is what the header shows.
type Data struct {
	// Demo says a recording plays (--demo, --replay): Source names it
	// ("demo" when empty) and Playback says where it stands: "" or
	// "playing", "paused", "ended".
	Demo             bool
	Source, Playback string
	ReadOnly         bool // --read-only: octop changes nothing on the server
	ServerURL        string
	Version          string // the server's OpenCode version, "" until known
	Conn             wire.ConnState
	ConnKnown        bool
	// LostAt is when the connection was lost, zero while the screen is
	// current (connected and re-read, or never connected yet).
	LostAt  time.Time
	Follow  bool
	Sort    string // the tree's sort key, "" (or "newest") for the default
	SnapErr error  // the last snapshot's failure
	Now     time.Time
	// AsksUnread says why the last snapshot could not read the pending
	// permissions or questions, "" when it did: their marks are as they
	// were before it.
	AsksUnread string

	// Counts covers the sessions in the tree (Sessions, Running, Waiting,
	// Failed, Unread): every one, or with Filtered the filter's matches.
	// Loading is how many histories are being read (their rows say "…";
	// so do the unread ones the screen reads only when wanted).
	Counts   model.Counts
	Loading  int
	Filtered bool
	// All counts every session, filtered or not: while the sort
	// (SortNeedsHistory) or the filter (FilterNeedsHistory) reads what only
	// histories tell and some are unread (All.Unread), the header says how
	// far along it is: "sorting 12,000 of 50,000 read".
	All                                  model.Counts
	SortNeedsHistory, FilterNeedsHistory bool
	// Runaway counts the sessions the watchdog marks that run now (shown
	// when not 0; a marked session that ended keeps only its row's mark);
	// Notice is the last notification, shown until the person has seen it.
	Runaway int
	Notice  string

	// Selected is the selected session (nil for none) and Subtree its
	// counts, whose tokens and cost are its subtree's roll-up.
	Selected *model.Session
	Subtree  model.Counts
}

// Summary is what a screen of several servers shows of one server's
// screen (its line in the servers bar): where it is connected and its
// counts.
type Summary struct {
	ServerURL string
	Version   string
	Conn      wire.ConnState
	ConnKnown bool

	Counts model.Counts // the sessions the tree holds, by state
}

// Lines is the two header lines, each exactly width cells.
func Lines(st *styles.Styles, d Data, width int) []string {
	line1 := firstLine(st, d, width)

	// Line 2: an error if there is one, else the selection's roll-up; the
	// counts on the right, which an ellipsis never eats.
	counts := countsText(st, d)
	switch {
	case d.Conn.State == wire.Disconnected && d.Conn.Err != nil:
		// Counts are stale while disconnected; the reason gets the line.
		return []string{format.Fit(line1, width), format.Fit(st.Ink.Failed.Render("error: ")+format.OneLine(d.Conn.Err.Error()), width)}
	case d.SnapErr != nil:
		line2 := st.Ink.Failed.Render("could not read the sessions: ") + format.OneLine(d.SnapErr.Error())
		return []string{format.Fit(line1, width), format.Spread(line2, counts, width)}
	case d.AsksUnread != "":
		line2 := st.Ink.Failed.Render("could not read the pending asks: ") + format.OneLine(d.AsksUnread)
		return []string{format.Fit(line1, width), format.Spread(line2, counts, width)}
	}
	line2 := selectionText(st, d, width-format.Width(counts)-3)
	return []string{format.Fit(line1, width), format.Spread(line2, counts, width)}
}

// noticeMin is the fewest cells a notice is cut to before it squeezes
// anything else.
const noticeMin = 16

// firstLine is where octop is connected (server, OpenCode version,
// connection state), then on the right the notice, the sort and follow.
// The notice takes half the line at most, and never the connection
// state's room: it is cut first, then the version goes, then the server's
// address is cut.
func firstLine(st *styles.Styles, d Data, width int) string {
	where := format.OneLine(d.ServerURL)
	if d.Demo {
		where = format.OneLine(cmp.Or(d.Source, "demo"))
	}
	var version string
	// A server gone out of reach may come back as another version.
	if d.Version != "" && d.LostAt.IsZero() {
		version = "OpenCode " + format.OneLine(d.Version)
	}
	conn := connText(st, d)
	if d.ReadOnly {
		conn = st.Ink.Dim.Render("read-only") + "  " + conn
	}
	var rest []string
	if d.Sort != "" && d.Sort != "newest" {
		rest = append(rest, st.Ink.Dim.Render("sort: "+d.Sort))
		if d.SortNeedsHistory && d.All.Unread > 0 {
			rest = append(rest, st.Ink.Retry.Render("sorting "+readOf(d)))
		}
	}
	if d.Follow {
		rest = append(rest, st.Ink.Busy.Render("[follow]"))
	}
	restW := format.Width(strings.Join(rest, "  "))
	leftW := func() int {
		w := len("octop") + 2 + format.Width(where) + 2 + format.Width(conn)
		if version != "" {
			w += 2 + format.Width(version)
		}
		return w
	}
	if d.Notice != "" {
		notice := "🔔 " + format.OneLine(d.Notice)
		want := min(format.Width(notice), width/2)
		room := width - leftW() - restW - 3
		if room < min(want, noticeMin) && version != "" {
			version = "" // the version gives way before the notice is cut short
			room = width - leftW() - restW - 3
		}
		notice = ansi.Truncate(notice, min(want, max(room, noticeMin)), "…")
		rest = append([]string{st.Ink.Waiting.Render(notice)}, rest...)
	}
	right := strings.Join(rest, "  ")
	if over := leftW() + format.Width(right) + 1 - width; over > 0 && format.Width(where) > over+1 {
		// The address is cut, never the connection state.
		where = ansi.Truncate(where, format.Width(where)-over, "…")
	}
	parts := []string{st.Ink.App.Render("octop"), st.Ink.URL.Render(where)}
	if version != "" {
		parts = append(parts, st.Ink.Dim.Render(version))
	}
	return format.Spread(strings.Join(append(parts, conn), "  "), right, width)
}

// connText is the connection state: connected, connecting, or the
// countdown to the next attempt.
func connText(st *styles.Styles, d Data) string {
	if d.Demo {
		switch d.Playback {
		case "paused":
			return st.Ink.Retry.Render("⏸ paused")
		case "ended":
			return st.Ink.Dim.Render("■ ended")
		}
		return st.Ink.Connected.Render("▶ replaying")
	}
	if !d.ConnKnown {
		return st.Ink.Dim.Render("○ connecting…")
	}
	if !d.LostAt.IsZero() {
		return st.Ink.Disconnected.Render(staleText(d))
	}
	switch d.Conn.State {
	case wire.Connected:
		return st.Ink.Connected.Render("● connected")
	case wire.Connecting:
		if d.Conn.Attempt > 1 {
			return st.Ink.Retry.Render(fmt.Sprintf("○ connecting (attempt %d)…", d.Conn.Attempt))
		}
		return st.Ink.Dim.Render("○ connecting…")
	}
	if d.Conn.RetryAt.IsZero() {
		if d.Conn.Err != nil {
			return st.Ink.Disconnected.Render("✗ error, not retrying")
		}
		return st.Ink.Disconnected.Render("✗ disconnected")
	}
	wait := max(d.Conn.RetryAt.Sub(d.Now), 0)
	secs := int((wait + time.Second - 1) / time.Second)
	return st.Ink.Disconnected.Render(fmt.Sprintf("✗ reconnecting in %ds", secs))
}

// staleText is "✗ disconnected 12s, retrying in 3s": how long what the
// screen shows has not been refreshed, and what octop does about it.
func staleText(d Data) string {
	since := max(d.Now.Sub(d.LostAt), 0)
	text := "✗ disconnected " + format.Elapsed(since.Milliseconds())
	switch {
	case d.Conn.State == wire.Connected:
		return text + ", re-reading the sessions…"
	case d.Conn.State == wire.Connecting:
		return text + ", connecting…"
	case d.Conn.RetryAt.IsZero() && d.Conn.Err != nil:
		return text + ": error, not retrying"
	case d.Conn.RetryAt.IsZero():
		return text + ", not retrying"
	}
	wait := max(d.Conn.RetryAt.Sub(d.Now), 0)
	return text + fmt.Sprintf(", retrying in %ds", int((wait+time.Second-1)/time.Second))
}

// readOf is "12,000 of 50,000 read".
func readOf(d Data) string {
	return format.Count(d.All.Sessions-d.All.Unread) + " of " + format.Count(d.All.Sessions) + " read"
}

// countsText is "all 40: 2 running  1 waiting  1 failed", with "12
// matching:" under a filter, "(5 loading)" while histories are read,
// "(48,990 unread)" for those read only when wanted, "(filtering 12,000
// of 50,000 read)" while a filter waits on them: the label says what the
// counts cover.
func countsText(st *styles.Styles, d Data) string {
	item := func(n int, word string, s styles.Ink) string {
		if n == 0 {
			return st.Ink.Dim.Render(fmt.Sprintf("%d %s", n, word))
		}
		return s.Render(fmt.Sprintf("%d %s", n, word))
	}
	label := "all " + format.Count(d.Counts.Sessions)
	if d.Filtered {
		label = format.Count(d.Counts.Sessions) + " matching"
	}
	var notes []string
	if d.Loading > 0 {
		notes = append(notes, format.Count(d.Loading)+" loading")
	}
	if d.Counts.Unread > d.Loading {
		notes = append(notes, format.Count(d.Counts.Unread)+" unread")
	}
	if d.Filtered && d.FilterNeedsHistory && d.All.Unread > 0 {
		notes = append(notes, "filtering "+readOf(d))
	}
	if len(notes) > 0 {
		label += " (" + strings.Join(notes, ", ") + ")"
	}
	out := st.Ink.Dim.Render(label+":") + " " + item(d.Counts.Running, "running", st.Ink.Busy) + "  " +
		item(d.Counts.Waiting, "waiting", st.Ink.Waiting) + "  " + item(d.Counts.Failed, "failed", st.Ink.Failed)
	if d.Runaway > 0 {
		out += "  " + st.Ink.Failed.Render(fmt.Sprintf("⚠ %d runaway", d.Runaway))
	}
	return out
}

// selectionText is the selected session's title and its subtree's tokens
// and cost, in room cells. The title gives way first: the figures are what
// the line is for.
func selectionText(st *styles.Styles, d Data, room int) string {
	s := d.Selected
	if s == nil {
		return st.Ink.Dim.Render("nothing selected")
	}
	title, _ := format.SplitTitle(s.Title)
	if title == "" {
		title = s.ID
	}
	rollup := fmt.Sprintf("  subtree: %s tokens · %s", format.Tokens(d.Subtree.Tokens), format.Cost(d.Subtree.SubtreeCost()))
	title = format.OneLine(title)
	if keep := room - format.Width(rollup); keep >= 8 && format.Width(title) > keep {
		title = ansi.Truncate(title, keep, "…")
	}
	return st.Ink.Title.Render(title) + st.Ink.Dim.Render(rollup)
}

// Cache draws the header again only when what it shows changed: most
// frames (an event in a row, a key in the tree) leave it as it was. It is
// not safe for concurrent use; a screen keeps one and calls it from View.
type Cache struct {
	st    *styles.Styles
	key   cacheKey
	lines []string
}

// cacheKey is what the lines are drawn from, in comparable form: the
// errors by their text, the selection by its title, the time only while
// a countdown or a "disconnected for" shows it.
type cacheKey struct {
	d                Data
	width            int
	snapErr, connErr string
	selID, selTitle  string
}

// Lines is Lines(st, d, width), drawn again only when one of them changed.
func (c *Cache) Lines(st *styles.Styles, d Data, width int) []string {
	k := cacheKey{d: d, width: width}
	if s := d.Selected; s != nil {
		k.selID, k.selTitle = s.ID, s.Title
	}
	if d.SnapErr != nil {
		k.snapErr = d.SnapErr.Error()
	}
	if d.Conn.Err != nil {
		k.connErr = d.Conn.Err.Error()
	}
	k.d.Selected, k.d.SnapErr, k.d.Conn.Err = nil, nil, nil
	if d.LostAt.IsZero() && d.Conn.RetryAt.IsZero() {
		k.d.Now = time.Time{} // no clock on show
	}
	if c.lines == nil || c.st != st || c.key != k {
		c.st, c.key, c.lines = st, k, Lines(st, d, width)
	}
	return c.lines
}
