package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseWindow reads a span of time as a duration (90m, 36h) or in days
// (7d, 1.5d): how far back the screen reads histories without being
// asked (--history-window, window in [history]).
func ParseWindow(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseFloat(days, 64)
		if err != nil || n < 0 || n > 100*365 {
			return 0, fmt.Errorf("%q is not a number of days like 7d", s)
		}
		return time.Duration(n * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a span of time like 7d or 36h", s)
	}
	return d, nil
}

// FormatWindow writes a span as ParseWindow reads it: in days when it is
// whole days.
func FormatWindow(d time.Duration) string {
	if d > 0 && d%(24*time.Hour) == 0 {
		return strconv.FormatInt(int64(d/(24*time.Hour)), 10) + "d"
	}
	return d.String()
}
