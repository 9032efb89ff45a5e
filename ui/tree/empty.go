package tree

import (
	"fmt"
	"strings"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/format"
)

// Empty is what the screen knows of why the tree has no rows.
type Empty struct {
	Demo      bool // a recording, not a server
	ConnKnown bool
	Conn      wire.ConnState
	ServerURL string // cleaned by the caller: it may come from the config file
}

// ViewOr draws the rows, or, with none, one hint in their place saying
// why, wrapped and never cut: it may be all a person has to go on.
func (m Model) ViewOr(e Empty) string { return strings.Join(m.LinesOr(e), "\n") }

// LinesOr is ViewOr's lines.
func (m Model) LinesOr(e Empty) []string {
	if len(m.rows) > 0 {
		return m.Lines()
	}
	var hint string
	switch {
	case m.filter != "":
		hint = fmt.Sprintf("no session matches %q — esc clears the filter", m.filter)
	case e.Demo:
		hint = "the recording is starting…"
	case e.ConnKnown && e.Conn.State == wire.Connected:
		hint = "no sessions yet — start a task in OpenCode and it shows up here"
	case e.ConnKnown && e.Conn.State == wire.Disconnected && e.Conn.Err != nil && e.Conn.RetryAt.IsZero():
		// Retrying cannot fix this one (a rejected password, not an
		// OpenCode server): waiting would be a lie.
		hint = "octop has stopped trying; fix the error above and start it again"
	default:
		hint = "waiting for the server at " + e.ServerURL + "…"
	}
	lines := strings.Split(format.Wrap(hint, max(m.width-1, 1)), "\n")
	for i, l := range lines {
		lines[i] = format.Fit(" "+m.inks.dim.Render(l), m.width)
	}
	return lines
}
