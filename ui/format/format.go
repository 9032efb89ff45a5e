// Package format turns the model's numbers and titles into the short
// strings the panes show. Every function is pure so each one is tested on
// its own.
package format

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/sanitize"
	"github.com/octop-dev/octop/model"
)

// Duration renders milliseconds the way a monitor column wants them: short
// and of stable shape. 850 → "0.8s", 12_000 → "12s", 65_000 → "1m05s",
// 3_720_000 → "1h02m".
func Duration(ms int64) string {
	if ms < 0 {
		ms = 0
	}
	switch {
	case ms < 10_000:
		return fmt.Sprintf("%d.%ds", ms/1000, (ms/100)%10) // truncated, not rounded: 9.99s is not yet 10s
	case ms < 60_000:
		return fmt.Sprintf("%ds", ms/1000)
	case ms < 3_600_000:
		return fmt.Sprintf("%dm%02ds", ms/60_000, (ms/1000)%60)
	default:
		return fmt.Sprintf("%dh%02dm", ms/3_600_000, (ms/60_000)%60)
	}
}

// Elapsed is Duration without tenths: tree rows redraw every second and a
// ticking decimal there is noise.
func Elapsed(ms int64) string {
	if ms < 60_000 {
		if ms < 0 {
			ms = 0
		}
		return fmt.Sprintf("%ds", ms/1000)
	}
	return Duration(ms)
}

// Tokens renders a token count: 950 → "950", 12_300 → "12.3k", 4_500_000 → "4.5M".
func Tokens(n float64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", n/1_000_000)
	case n >= 1_000:
		return fmt.Sprintf("%.1fk", n/1_000)
	default:
		return fmt.Sprintf("%.0f", n)
	}
}

// Cost is a cost as the screen says it (model.Cost.Text): "n/a" when
// nothing is priced, "≥$0.0123" when some replies are not, else the sum.
func Cost(c model.Cost) string { return c.Text(Dollars) }

// Dollars renders dollars with enough digits that small runs are not
// "$0.00".
func Dollars(c float64) string {
	if c >= 1 {
		return fmt.Sprintf("$%.2f", c)
	}
	return fmt.Sprintf("$%.4f", c)
}

// SplitTitle is model.SplitTitle with the agent made one line by
// OneLine, as every row draws it. A title whose agent cleans to nothing
// comes back whole with no agent. It runs for every visible row of every
// frame, hence no regexp.
func SplitTitle(title string) (desc, agent string) {
	desc, agent = model.SplitTitle(title)
	if agent == "" {
		return title, ""
	}
	// The agent is drawn as it comes, so it is made one line here, for
	// every caller: a stray byte in it (invalid UTF-8) was measured as no
	// cell and drawn as one, and left the row a cell too wide.
	if agent = OneLine(agent); agent == "" {
		return title, ""
	}
	return desc, agent
}

// SessionName is a session's title as its row names it, one line (see
// OneLine): the description, then "@agent" when the title names the
// agent its task gave it, so "worker 1 (@general subagent)" is
// "worker 1 @general". Dialogs name a session by it.
func SessionName(title string) string {
	desc, agent := SplitTitle(title)
	desc = OneLine(desc)
	switch {
	case agent == "":
		return desc
	case desc == "":
		return "@" + agent
	}
	return desc + " @" + agent
}

// OneLine folds a text from the server into one line a row can hold: it
// is the screen's way in for every title, name, input and message from a
// server or a recording, cleaned by package sanitize. Line breaks and tabs
// become spaces; escape sequences and other control
// characters are shown as their pictures (ESC as ␛), so a title or a
// tool's input can neither wrap a row nor reach the terminal; invalid
// UTF-8 becomes U+FFFD. Marks and joiners at its start go, and prepended
// signs at its end: with no letter beside them, they would join the space
// a row puts around the text and make the row a cell short.
//
// Only the first MaxLine bytes are read, an ellipsis after them: no row
// shows more, and the work a frame does for a string from a server then
// follows the screen's size, not the string's.
func OneLine(s string) string {
	if len(s) > MaxLine {
		s = headOf(s, MaxLine) + "…"
	}
	s = trimJoiners(s)
	if plain(s) {
		return s
	}
	// A picture may leave a mark first no longer: trim again.
	return trimJoiners(strings.Join(strings.Fields(sanitize.Line(s)), " "))
}

// MaxLine is how many bytes of a string OneLine reads.
const MaxLine = 4 << 10

// headOf is at most n bytes of the start of s, cut on a rune boundary.
func headOf(s string, n int) string {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:min(n, len(s))]
}

// trimJoiners trims spaces, the marks and joiners s starts with and the
// prepended signs it ends with.
func trimJoiners(s string) string {
	for {
		t := strings.TrimSpace(strings.TrimRightFunc(strings.TrimLeftFunc(strings.TrimSpace(s), joins), prepends))
		if t == s {
			return s
		}
		s = t
	}
}

// prepends says r is a prepended sign (UAX #29 Grapheme_Cluster_Break =
// Prepend): it joins the character after it. The grapheme tables are the
// ones the widths are measured with (ansi), which may know newer
// characters than Go's unicode package.
func prepends(r rune) bool { return r >= utf8.RuneSelf && oneCluster(string(r)+"a") }

// joins says r joins the character before it: a combining mark, a zero
// width joiner or non-joiner, any extending character the grapheme tables
// know.
//
// No ASCII character joins or is prepended, so those are answered without
// asking the tables (which costs an allocation, for every title drawn).
func joins(r rune) bool {
	if r < utf8.RuneSelf {
		return false
	}
	return unicode.IsMark(r) || r == '\u200d' || r == '\u200c' || oneCluster("a"+string(r))
}

// oneCluster says s is a single grapheme cluster.
func oneCluster(s string) bool {
	c, _ := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
	return len(c) == len(s)
}

// plain says s holds no control character and is valid UTF-8: OneLine has
// nothing to do.
func plain(s string) bool { return sanitize.IsClean(s) }

// Noun picks the singular or plural form of a noun for n.
func Noun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count is n with a comma between each three digits: "50,000".
func Count(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Plural is n followed by its noun: "1 child", "3 children".
func Plural(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, Noun(n, one, many))
}
