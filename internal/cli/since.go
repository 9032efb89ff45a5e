package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/sanitize"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// parseSince reads --since: a Go duration (90m, 24h) or a count of days
// or weeks (7d, 2w), back from now; "" is no bound (0).
func parseSince(s string, now time.Time) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	unit := map[byte]time.Duration{'d': 24 * time.Hour, 'w': 7 * 24 * time.Hour}[s[len(s)-1]]
	var d time.Duration
	var err error
	if unit != 0 {
		var n float64
		n, err = strconv.ParseFloat(s[:len(s)-1], 64)
		d = time.Duration(n * float64(unit))
	} else {
		d, err = time.ParseDuration(s)
	}
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("--since takes a time back from now like 24h, 7d or 2w, not %q", s)
	}
	return now.Add(-d).UnixMilli(), nil
}

// rootsSince lists the server's roots (newest first) whose tree was
// updated at or after since (Unix ms; 0: every root).
func rootsSince(ctx context.Context, c *client.Client, since int64) ([]string, error) {
	sessions, err := c.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	st := model.New()
	st.ApplySnapshot(model.Snapshot{Sessions: sessions, Status: map[string]wire.SessionStatus{}, Complete: true})
	roots := []string{}
	for _, r := range st.Roots() {
		latest := int64(0)
		for _, id := range st.SubtreeIDs(r) {
			ss := st.Session(id)
			latest = max(latest, ss.Updated, ss.Created)
		}
		if latest >= since {
			roots = append(roots, r)
		}
	}
	return roots, nil
}

// serverText is a name or title from the server as one line for a
// terminal: what is not text is shown, not obeyed (sanitize.Line), runs
// of spaces squashed. Every name and title export and usage print goes
// through it.
func serverText(s string) string { return squashSpaces(sanitize.Line(s)) }
