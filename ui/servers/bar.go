package servers

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui"
	"github.com/octop-dev/octop/ui/format"
)

// bar is the servers line: each server (the selected one bracketed) with
// its connection mark and running count, then the sums over all and how
// many servers are down, and the keys that jump between them, exactly m.width cells.
func (m Model) bar() string {
	ink := m.styles.Ink
	parts := []string{ink.App.Render("servers")}
	var sum ui.Summary
	down := 0
	for i, s := range m.screens {
		d := s.Summary()
		sum.Counts.Running += d.Counts.Running
		sum.Counts.Waiting += d.Counts.Waiting
		sum.Counts.Failed += d.Counts.Failed
		mark := ink.Dim.Render("○")
		switch {
		case m.down(i):
			down++
			mark = ink.Disconnected.Render("✗ down")
		case d.ConnKnown && d.Conn.State == wire.Connected:
			mark = ink.Connected.Render("●")
		}
		label := fmt.Sprintf("%d %s", i+1, hostOf(d.ServerURL))
		if d.Version != "" {
			label += " " + d.Version
		}
		item := label + " " + mark + " " + fmt.Sprintf("%d running", d.Counts.Running)
		if i == m.sel {
			item = ink.URL.Render("[" + item + "]")
		}
		parts = append(parts, item)
	}
	total := fmt.Sprintf("all: %d running  %d waiting  %d failed", sum.Counts.Running, sum.Counts.Waiting, sum.Counts.Failed)
	if down > 0 {
		total += "  " + ink.Disconnected.Render(fmt.Sprintf("%d of %d down", down, len(m.screens)))
	}
	parts = append(parts, total, ink.Dim.Render("[ ] 1-9 jump"))
	return format.Fit(strings.Join(parts, "  "), m.width)
}

// down says server i is out of reach, not merely still starting: its
// stream is lost, or it is being tried again after a failed attempt or
// after the stream it had dropped (its rows stale until it is re-read).
// Between attempts the stream says connecting; the server is still down.
func (m Model) down(i int) bool {
	d := m.screens[i].Summary()
	if !d.ConnKnown || d.Conn.State == wire.Connected {
		return false
	}
	return d.Conn.State == wire.Disconnected || d.Conn.Attempt > 1 || m.screens[i].Tree().Stale()
}

// hostOf is a server URL's host:port and path, short enough for the bar.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	return u.Host + strings.TrimRight(u.Path, "/")
}
